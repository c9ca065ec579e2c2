"""Settings without value equality, and a builder of them and of weight tables: the modules that build
their pytrees from these keep a new object per pytree."""
import jax.numpy as jnp


class Settings:
    def __init__(self, lr):
        self.lr = lr


class SettingsBuilder:
    def __init__(self, lr):
        self.lr = lr

    def build(self):
        return Settings(self.lr)

    def table(self):
        return jnp.ones(3) * self.lr
