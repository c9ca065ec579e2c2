"""Running the code the linter reads, only when asked: `pytree-lint verify` proves each finding under
`jax.jit`, and `check_pytree` checks pytrees in a user's own tests. The static path never imports this
package's JAX-using functions: they import JAX inside their bodies."""
