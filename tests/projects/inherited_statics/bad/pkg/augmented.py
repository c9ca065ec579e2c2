"""The subclass that pkg/costs.py's static field reaches, and the builder that gives it a new function."""
from .costs import WeightedCost


class AnalyzedCost(WeightedCost):
    variables: int = 1


def augment(weight):
    def augmented(values):
        return values * weight

    return AnalyzedCost(residual_fn=augmented, weight=weight)
