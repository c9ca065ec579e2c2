# expected: PTL403
# misuse: preprocess passes the array constructor np.array([24, 24]) as the static keyword crop_hw of the jitted center_crop_jit; report line 50
"""Image batch preprocessing: center crop, per-channel normalisation, one-hot labels."""
import dataclasses

import jax
import jax.numpy as jnp
import numpy as np

MEAN = np.array([0.485, 0.456, 0.406], dtype=np.float32)
STD = np.array([0.229, 0.224, 0.225], dtype=np.float32)


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Batch:
    images: jax.Array
    labels: jax.Array


def center_crop(images, crop_hw):
    h, w = images.shape[1:3]
    ch, cw = crop_hw
    top, left = (h - ch) // 2, (w - cw) // 2
    return images[:, top:top + ch, left:left + cw, :]


center_crop_jit = jax.jit(center_crop, static_argnames=("crop_hw",))


@jax.jit
def normalize(batch: Batch) -> Batch:
    images = (batch.images.astype(jnp.float32) / 255.0 - MEAN) / STD
    return Batch(images, jax.nn.one_hot(batch.labels, 10))


def fake_batch(key, n=16, size=32):
    k_img, k_lab = jax.random.split(key)
    images = jax.random.randint(k_img, (n, size, size, 3), 0, 256).astype(jnp.uint8)
    labels = jax.random.randint(k_lab, (n,), 0, 10)
    return Batch(images, labels)


def examples():
    key = jax.random.PRNGKey(0)
    return [fake_batch(key), fake_batch(key)]


def preprocess(batch):
    cropped = center_crop_jit(batch.images, crop_hw=np.array([24, 24]))
    return normalize(Batch(cropped, batch.labels))


def reproduce():
    batch = preprocess(fake_batch(jax.random.PRNGKey(3)))
    return batch.images.shape, float(batch.images.mean())
