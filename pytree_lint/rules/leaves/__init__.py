"""PTL4xx: what becomes a leaf that jit, vmap and grad trace, and what jit's static arguments hold."""
