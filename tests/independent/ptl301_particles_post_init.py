# expected: PTL301
# misuse: flax.struct's unflatten rebuilds Particles through __init__, which runs this validating __post_init__ on per-particle slices (vmap), shape tuples and None (jacobian); report line 19 (the `def __post_init__` that unflatten runs; flax.struct has no user-written unflatten).
"""N-body particle state for a molecular-dynamics style integrator."""
import jax
import jax.numpy as jnp
from flax import struct


@struct.dataclass
class Particles:
    """positions and velocities have shape (n, 3); masses has shape (n,)."""

    positions: jax.Array
    velocities: jax.Array
    masses: jax.Array
    box_size: float = struct.field(pytree_node=False, default=10.0)

    # catch wrongly shaped inputs early, before they reach the integrator
    def __post_init__(self):
        if self.positions.ndim != 2 or self.positions.shape[-1] != 3:
            raise ValueError(f"positions must be (n, 3), got {self.positions.shape}")
        if self.velocities.shape != self.positions.shape:
            raise ValueError("velocities must have the same shape as positions")

    def kinetic_energy(self):
        return 0.5 * jnp.sum(self.masses[:, None] * self.velocities**2)


def lennard_jones_forces(positions, box_size, eps=1.0, sigma=1.0):
    d = positions[:, None, :] - positions[None, :, :]
    d = d - box_size * jnp.round(d / box_size)
    r2 = jnp.sum(d**2, axis=-1) + jnp.eye(positions.shape[0])
    inv6 = (sigma**2 / r2) ** 3
    mag = 24.0 * eps * (2.0 * inv6**2 - inv6) / r2
    mag = mag * (1.0 - jnp.eye(positions.shape[0]))
    return jnp.sum(mag[..., None] * d, axis=1)


@jax.jit
def velocity_verlet(state: Particles, dt: float) -> Particles:
    f = lennard_jones_forces(state.positions, state.box_size)
    v_half = state.velocities + 0.5 * dt * f / state.masses[:, None]
    x_new = jnp.mod(state.positions + dt * v_half, state.box_size)
    f_new = lennard_jones_forces(x_new, state.box_size)
    v_new = v_half + 0.5 * dt * f_new / state.masses[:, None]
    return state.replace(positions=x_new, velocities=v_new)


def particle_speeds(state: Particles):
    """Speed of each particle, mapped over the particle axis."""
    return jax.vmap(lambda p: jnp.linalg.norm(p.velocities))(state)


def lattice(n_side=2, spacing=1.5):
    g = jnp.arange(n_side) * spacing
    pos = jnp.stack(jnp.meshgrid(g, g, g, indexing="ij"), -1).reshape(-1, 3)
    vel = 0.1 * jnp.cos(jnp.arange(pos.size, dtype=jnp.float32)).reshape(pos.shape)
    return Particles(positions=pos, velocities=vel, masses=jnp.ones(pos.shape[0]))


def examples():
    return [lattice(), lattice()]
