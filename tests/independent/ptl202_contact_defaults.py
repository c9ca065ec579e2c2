# expected: PTL202
# misuse: the tree_map function tests `e is None`, but None is an empty subtree and never reaches it, so unset bodies keep None; report line 27 (the tree_map call).
"""Ball-on-floor contact: per-body restitution, with None meaning "use the default"."""
import jax
import jax.numpy as jnp
from jax import tree_util

DEFAULT_RESTITUTION = 0.6
GRAVITY = -9.81


def make_bodies():
    return {
        "ball": {"y": jnp.array(1.0), "vy": jnp.array(0.0)},
        "crate": {"y": jnp.array(2.0), "vy": jnp.array(-1.0)},
        "pebble": {"y": jnp.array(0.5), "vy": jnp.array(0.0)},
    }


def make_overrides():
    # only the crate is tuned; the others fall back to DEFAULT_RESTITUTION
    return {"ball": None, "crate": 0.2, "pebble": None}


def resolve_restitution(overrides):
    """Replace every unset coefficient with the default."""
    return tree_util.tree_map(lambda e: DEFAULT_RESTITUTION if e is None else e, overrides)


def step_body(body, restitution, dt):
    vy = body["vy"] + GRAVITY * dt
    y = body["y"] + vy * dt
    hit = y < 0.0
    vy = jnp.where(hit, -restitution * vy, vy)
    y = jnp.where(hit, -y, y)
    return {"y": y, "vy": vy}


def simulate(bodies, overrides, dt=0.01, steps=200):
    coeffs = resolve_restitution(overrides)
    for name in bodies:
        e = coeffs[name] if coeffs[name] is not None else 1.0
        body = bodies[name]
        for _ in range(steps):
            body = step_body(body, e, dt)
        bodies = {**bodies, name: body}
    return bodies, coeffs


def reproduce():
    bodies, coeffs = simulate(make_bodies(), make_overrides(), steps=50)
    # coeffs == {'ball': None, 'crate': 0.2, 'pebble': None}: the ball and pebble
    # bounce perfectly elastically (e=1.0) instead of with the default 0.6
    return coeffs
