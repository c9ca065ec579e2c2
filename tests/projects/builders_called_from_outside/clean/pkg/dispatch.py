"""A dispatcher over observables: the builders other modules register with it run only through it."""
import functools


@functools.singledispatch
def estimators(observable):
    raise NotImplementedError(type(observable))
