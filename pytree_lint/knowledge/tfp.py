"""TensorFlow Probability's JAX substrate: its distributions and bijectors are `AutoCompositeTensor`s, each
registered as a pytree node (leaves: its tensor parameters; aux_data: the rest), and so is every subclass of
one; `Distribution` and `Bijector` themselves are not, and a class derived from them directly is a leaf.
Measured on TFP 0.24 with jax 0.4.30 (TFP does not import on jax 0.10.2): `tree_structure(tfd.Normal(0.,
1.))` is `CustomNode(Normal[...])`, as is a subclass of `tfd.Categorical`'s, and of `tfb.Scale(2.)`; a
subclass of `tfd.Distribution` is `*`. Only what a child of such a type is matters here: TFP's own
flatten is not the project's."""

from __future__ import annotations

_SUBSTRATE = "tensorflow_probability.substrates.jax."
NODE_PREFIXES = (f"{_SUBSTRATE}distributions.", f"{_SUBSTRATE}bijectors.")
# Under those prefixes but no pytree: the abstract bases, by their public and their defining module's name.
NOT_NODES = frozenset({
    f"{_SUBSTRATE}distributions.Distribution", f"{_SUBSTRATE}distributions.distribution.Distribution",
    f"{_SUBSTRATE}bijectors.Bijector", f"{_SUBSTRATE}bijectors.bijector.Bijector",
})


def is_node_class(qualified: str | None) -> bool:
    """A TFP class whose objects (and its subclasses') JAX flattens as nodes."""
    return qualified is not None and qualified.startswith(NODE_PREFIXES) and qualified not in NOT_NODES
