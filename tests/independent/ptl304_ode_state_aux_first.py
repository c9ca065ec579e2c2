# expected: PTL304
# misuse: _solver_state_flatten returns (aux_data, children) -- the method name and step count come first and become the leaves, the arrays go to aux; report line 35 (its return).
"""Fixed-step Runge-Kutta integration of a damped pendulum, state kept as a pytree."""
import jax
import jax.numpy as jnp
from jax import tree_util


class SolverState:
    def __init__(self, t, y, dt, method="rk4", n_steps=0):
        self.t = t
        self.y = y
        self.dt = dt
        self.method = method
        self.n_steps = n_steps

    def __repr__(self):
        return f"SolverState(t={self.t}, y={self.y}, dt={self.dt}, method={self.method!r})"


def pendulum(t, y, damping=0.1):
    theta, omega = y
    return jnp.stack([omega, -jnp.sin(theta) - damping * omega])


def rk4(f, t, y, dt):
    k1 = f(t, y)
    k2 = f(t + dt / 2, y + dt / 2 * k1)
    k3 = f(t + dt / 2, y + dt / 2 * k2)
    k4 = f(t + dt, y + dt * k3)
    return y + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def _solver_state_flatten(s):
    return (s.method, s.n_steps), (s.t, s.y, s.dt)


tree_util.register_pytree_node(
    SolverState,
    _solver_state_flatten,
    lambda aux, children: SolverState(*children, *aux),
)


@jax.jit
def advance(state: SolverState) -> SolverState:
    y = rk4(pendulum, state.t, state.y, state.dt)
    return SolverState(state.t + state.dt, y, state.dt, state.method, state.n_steps + 1)


def integrate(state, n):
    for _ in range(n):
        state = advance(state)
    return state


def initial_state():
    return SolverState(jnp.array(0.0), jnp.array([1.0, 0.0]), jnp.array(0.05))


def examples():
    return [initial_state(), initial_state()]
