"""PTL902 non-array-child-untransformed

What it does:
    Opt-in (`--extend-select PTL9`, or by code). Finds what PTL401 finds (a str, callable or class
    object among a pytree's children) on a class that the analysis never sees reaching a JAX
    transformation: no instance passed to a jitted, vmapped or differentiated function or to
    `lax.scan`/`cond`/..., no such function's parameter annotated with it, in this module or another of
    the project (an argument vmap passes unmapped, `in_axes` None, or jit takes as static is not traced).

Why is this bad:
    Correct today: tree utilities (`jax.tree.map`, `jax.tree.leaves`, a checkpointing library's tree
    functions) take any leaf, and making the field static would change what they do. But the day an
    instance reaches jit, vmap or grad, every call raises (measured, jax 0.10.2): `TypeError: Error
    interpreting argument to <function ...> as an abstract array. The problematic value is of type
    <class 'str'> ...`.

Example:
    @jax.tree_util.register_pytree_node_class
    class Record:
        def __init__(self, values, label: str):
            self.values = values
            self.label = label

        def tree_flatten(self):
            return (self.values, self.label), None    # PTL902: only ever tree-mapped

Use instead:
    If the class is meant to cross jit, make the field static (aux_data, `field(metadata=dict(static=True))`);
    if it is a container for tree utilities only, leave it.

Known false positives:
    It is advice: every finding is correct code until an instance reaches a transformation.

Known limits:
    Transformations reached through a function of another module that takes the instance unannotated
    are not seen, so such a class is reported here rather than as PTL401.
"""

from __future__ import annotations

from ..leaves.ptl401_non_array_child import NonArrayChild


class NonArrayChildUntransformed(NonArrayChild):
    code = "PTL902"
    name = "non-array-child-untransformed"
    summary = "(opt-in) a str, callable or class object is a child of a class never seen reaching a transformation"
    transformed = False
    consequence = ("tree utilities take it, but jit, vmap and grad would reject it (`TypeError: ... not a valid JAX "
                   "type`): make it static if the class is meant to cross a transformation")
