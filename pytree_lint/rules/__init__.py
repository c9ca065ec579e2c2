"""The rules, one module each in the folder of their family (with its docs, check, fix and run-time
probe); ALL_RULES is the order they are documented and run in."""

from .aux_data.ptl101_array_in_aux_data import ArrayInAuxData
from .aux_data.ptl102_mutable_aux_data import MutableAuxData
from .aux_data.ptl103_volatile_aux_data import VolatileAuxData
from .aux_data.ptl104_identity_compared_aux_data import IdentityComparedAuxData
from .aux_data.ptl105_array_equality_in_aux_class import ArrayEqualityInAuxClass
from .base import Report, Rule
from .flatten.ptl301_unflatten_runs_validating_init import UnflattenRunsValidatingInit
from .flatten.ptl302_children_order_mismatch import ChildrenOrderMismatch
from .flatten.ptl303_unflatten_arguments_swapped import UnflattenArgumentsSwapped
from .flatten.ptl304_flatten_returns_aux_first import FlattenReturnsAuxFirst
from .flatten.ptl305_flatten_children_not_a_sequence import FlattenChildrenNotASequence
from .flatten.ptl306_flatten_drops_a_field import FlattenDropsAField
from .flatten.ptl307_keyed_flatten_disagrees import KeyedFlattenDisagrees
from .flatten.ptl308_unflatten_children_not_unpacked import UnflattenChildrenNotUnpacked
from .leaves.ptl401_non_array_child import NonArrayChild
from .leaves.ptl402_non_array_field_into_jit import NonArrayFieldIntoJit
from .leaves.ptl403_unhashable_static_argument import UnhashableStaticArgument
from .leaves.ptl404_static_config_as_child import StaticConfigAsChild
from .leaves.ptl405_array_declared_static import ArrayDeclaredStatic
from .nnx.ptl501_nnx_data_in_static_container import NnxDataInStaticContainer
from .nnx.ptl502_nnx_static_container_filled_later import NnxStaticContainerFilledLater
from .nnx.ptl503_nnx_static_then_data import NnxStaticThenData
from .nnx.ptl504_nnx_parameter_not_a_variable import NnxParameterNotAVariable
from .nnx.ptl505_nnx_module_hidden_in_callable import NnxModuleHiddenInCallable
from .nnx.ptl506_nnx_data_marked_config import NnxDataMarkedConfig
from .opt_in.ptl901_mutable_aux_data_unmutated import MutableAuxDataUnmutated
from .opt_in.ptl902_non_array_child_untransformed import NonArrayChildUntransformed
from .tree_calls.ptl201_shape_tuple_as_subtree import ShapeTupleAsSubtree
from .tree_calls.ptl202_none_test_in_tree_map import NoneTestInTreeMap
from .tree_calls.ptl203_iterator_as_pytree import IteratorAsPytree
from .tree_calls.ptl204_none_in_first_tree_of_multi_tree_map import NoneInFirstTreeOfMultiTreeMap

ALL_RULES: tuple[type[Rule], ...] = (
    ArrayInAuxData,
    MutableAuxData,
    VolatileAuxData,
    IdentityComparedAuxData,
    ArrayEqualityInAuxClass,
    ShapeTupleAsSubtree,
    NoneTestInTreeMap,
    IteratorAsPytree,
    NoneInFirstTreeOfMultiTreeMap,
    UnflattenRunsValidatingInit,
    ChildrenOrderMismatch,
    UnflattenArgumentsSwapped,
    FlattenReturnsAuxFirst,
    FlattenChildrenNotASequence,
    FlattenDropsAField,
    KeyedFlattenDisagrees,
    UnflattenChildrenNotUnpacked,
    NonArrayChild,
    NonArrayFieldIntoJit,
    UnhashableStaticArgument,
    StaticConfigAsChild,
    ArrayDeclaredStatic,
    NnxDataInStaticContainer,
    NnxStaticContainerFilledLater,
    NnxStaticThenData,
    NnxParameterNotAVariable,
    NnxModuleHiddenInCallable,
    NnxDataMarkedConfig,
    MutableAuxDataUnmutated,
    NonArrayChildUntransformed,
)
RULES_BY_CODE = {rule.code: rule for rule in ALL_RULES}

__all__ = ["ALL_RULES", "RULES_BY_CODE", "Report", "Rule"]
