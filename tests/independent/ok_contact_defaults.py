# expected: none
# near PTL202/PTL203: the `is None` test is reachable because of is_leaf=lambda x: x is None, and the dict view is turned into a list before jax.tree.leaves.
"""Ball-on-floor contact with per-body restitution overrides (None = default)."""
import jax
import jax.numpy as jnp

DEFAULT_RESTITUTION = 0.6
GRAVITY = -9.81


def make_bodies():
    return {
        "ball": {"y": jnp.array(1.0), "vy": jnp.array(0.0)},
        "crate": {"y": jnp.array(2.0), "vy": jnp.array(-1.0)},
        "pebble": {"y": jnp.array(0.5), "vy": jnp.array(0.0)},
    }


def resolve_restitution(overrides):
    return jax.tree.map(
        lambda e: DEFAULT_RESTITUTION if e is None else e,
        overrides,
        is_leaf=lambda x: x is None,
    )


def step(bodies, restitution, dt):
    def one(body, e):
        vy = body["vy"] + GRAVITY * dt
        y = body["y"] + vy * dt
        hit = y < 0.0
        return {"y": jnp.where(hit, -y, y), "vy": jnp.where(hit, -e * vy, vy)}

    # restitution is a prefix of bodies: each float is matched with a whole body dict
    return jax.tree.map(one, bodies, restitution, is_leaf=lambda x: isinstance(x, dict) and "vy" in x)


def total_energy(bodies):
    states = jax.tree.leaves(list(bodies.values()), is_leaf=lambda x: isinstance(x, dict))
    return sum(0.5 * b["vy"] ** 2 - GRAVITY * b["y"] for b in states)


@jax.jit
def simulate(bodies, restitution):
    return jax.lax.fori_loop(0, 100, lambda _, b: step(b, restitution, 0.01), bodies)


def reproduce():
    coeffs = resolve_restitution({"ball": None, "crate": 0.2, "pebble": None})
    assert coeffs == {"ball": 0.6, "crate": 0.2, "pebble": 0.6}
    bodies = simulate(make_bodies(), coeffs)
    n_arrays = len(jax.tree.leaves(list(bodies.values())))
    return coeffs, n_arrays, float(total_energy(bodies))
