"""The rules, one module each; ALL_RULES is the order they are documented and run in."""

from .base import Report, Rule
from .ptl101_array_in_aux_data import ArrayInAuxData
from .ptl102_mutable_aux_data import MutableAuxData
from .ptl103_volatile_aux_data import VolatileAuxData
from .ptl104_identity_compared_aux_data import IdentityComparedAuxData
from .ptl105_array_equality_in_aux_class import ArrayEqualityInAuxClass
from .ptl401_non_array_child import NonArrayChild
from .ptl403_unhashable_static_argument import UnhashableStaticArgument

ALL_RULES: tuple[type[Rule], ...] = (
    ArrayInAuxData,
    MutableAuxData,
    VolatileAuxData,
    IdentityComparedAuxData,
    ArrayEqualityInAuxClass,
    NonArrayChild,
    UnhashableStaticArgument,
)
RULES_BY_CODE = {rule.code: rule for rule in ALL_RULES}

__all__ = ["ALL_RULES", "RULES_BY_CODE", "Report", "Rule"]
