"""The rules, one module each; ALL_RULES is the order they are documented and run in."""

from .base import Report, Rule
from .ptl101_array_in_aux_data import ArrayInAuxData
from .ptl102_mutable_aux_data import MutableAuxData
from .ptl103_volatile_aux_data import VolatileAuxData
from .ptl104_identity_compared_aux_data import IdentityComparedAuxData
from .ptl105_array_equality_in_aux_class import ArrayEqualityInAuxClass
from .ptl201_shape_tuple_as_subtree import ShapeTupleAsSubtree
from .ptl202_none_test_in_tree_map import NoneTestInTreeMap
from .ptl203_iterator_as_pytree import IteratorAsPytree
from .ptl301_unflatten_runs_validating_init import UnflattenRunsValidatingInit
from .ptl302_children_order_mismatch import ChildrenOrderMismatch
from .ptl303_unflatten_arguments_swapped import UnflattenArgumentsSwapped
from .ptl304_flatten_returns_aux_first import FlattenReturnsAuxFirst
from .ptl305_flatten_children_not_a_sequence import FlattenChildrenNotASequence
from .ptl306_flatten_drops_a_field import FlattenDropsAField
from .ptl307_keyed_flatten_disagrees import KeyedFlattenDisagrees
from .ptl401_non_array_child import NonArrayChild
from .ptl402_non_array_field_into_jit import NonArrayFieldIntoJit
from .ptl403_unhashable_static_argument import UnhashableStaticArgument
from .ptl404_static_config_as_child import StaticConfigAsChild

ALL_RULES: tuple[type[Rule], ...] = (
    ArrayInAuxData,
    MutableAuxData,
    VolatileAuxData,
    IdentityComparedAuxData,
    ArrayEqualityInAuxClass,
    ShapeTupleAsSubtree,
    NoneTestInTreeMap,
    IteratorAsPytree,
    UnflattenRunsValidatingInit,
    ChildrenOrderMismatch,
    UnflattenArgumentsSwapped,
    FlattenReturnsAuxFirst,
    FlattenChildrenNotASequence,
    FlattenDropsAField,
    KeyedFlattenDisagrees,
    NonArrayChild,
    NonArrayFieldIntoJit,
    UnhashableStaticArgument,
    StaticConfigAsChild,
)
RULES_BY_CODE = {rule.code: rule for rule in ALL_RULES}

__all__ = ["ALL_RULES", "RULES_BY_CODE", "Report", "Rule"]
