"""PTL5xx: Flax NNX, where every Module is a pytree and an attribute's value decides whether it is data."""
