# expected: PTL402
# misuse: _velocity_verlet is wrapped by jit with no static arguments and its `system: System` argument is a NamedTuple whose Callable field `potential` is a leaf; report line 34
"""Velocity-Verlet molecular dynamics of a small Lennard-Jones cluster."""
from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp
from jax import jit


def lennard_jones(positions, sigma=1.0, epsilon=1.0):
    diff = positions[:, None, :] - positions[None, :, :]
    r2 = jnp.sum(diff ** 2, axis=-1) + jnp.eye(positions.shape[0])
    inv6 = (sigma ** 2 / r2) ** 3
    energy = 4.0 * epsilon * (inv6 ** 2 - inv6)
    return 0.5 * jnp.sum(energy * (1.0 - jnp.eye(positions.shape[0])))


class System(NamedTuple):
    masses: jax.Array
    dt: float
    potential: Callable[[jax.Array], jax.Array]


class MDState(NamedTuple):
    positions: jax.Array
    velocities: jax.Array


def forces(system, positions):
    return -jax.grad(system.potential)(positions)


def _velocity_verlet(state: MDState, system: System, n_steps: int = 50):
    inv_m = 1.0 / system.masses[:, None]

    def body(_, s):
        f = forces(system, s.positions)
        v_half = s.velocities + 0.5 * system.dt * f * inv_m
        x_new = s.positions + system.dt * v_half
        v_new = v_half + 0.5 * system.dt * forces(system, x_new) * inv_m
        return MDState(x_new, v_new)

    return jax.lax.fori_loop(0, n_steps, body, state)


velocity_verlet = jit(_velocity_verlet)


def examples():
    masses = jnp.ones(4)
    return [System(masses, 1e-3, lennard_jones), System(masses, 1e-3, lennard_jones)]


def reproduce():
    grid = jnp.array([[0.0, 0.0, 0.0], [1.12, 0.0, 0.0], [0.0, 1.12, 0.0], [1.12, 1.12, 0.0]])
    state = MDState(grid, jnp.zeros_like(grid))
    system = System(masses=jnp.ones(4), dt=1e-3, potential=lennard_jones)
    state = velocity_verlet(state, system)
    kinetic = 0.5 * jnp.sum(system.masses[:, None] * state.velocities ** 2)
    return float(kinetic + lennard_jones(state.positions))
