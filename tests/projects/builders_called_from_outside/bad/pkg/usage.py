"""How the cell lists are used (an example, not a use)::

    from pkg.cells import cell_list

    fns = cell_list(0.5)
    cells = fns.allocate(positions)
"""


def describe():
    return "cells of a fixed size, allocated once and updated each step"
