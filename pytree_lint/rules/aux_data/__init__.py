"""PTL1xx: what reaches aux_data or a static field, where JAX compares it with `==` and hashes it."""
