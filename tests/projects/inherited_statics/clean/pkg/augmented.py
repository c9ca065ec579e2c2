"""A subclass with a constructor of its own: the function a builder passes it is used, not kept."""
from .costs import WeightedCost, base_residual


class AnalyzedCost(WeightedCost):
    def __init__(self, transform, weight):
        self.residual_fn = base_residual
        self.weight = transform(weight)


def augment(weight):
    return AnalyzedCost(lambda w: w * 2.0, weight)


def costs(weights):
    return [augment(weight) for weight in weights]
