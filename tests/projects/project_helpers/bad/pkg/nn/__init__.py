from .base import Layer, static
