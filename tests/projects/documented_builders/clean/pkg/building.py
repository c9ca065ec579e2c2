"""Builds the structs of the neighbour-list factories (imported when called: the structs' module imports this
one)."""


def functions_of(allocate, update):
    from .neighbors import NeighborFns

    return NeighborFns(allocate, update)
