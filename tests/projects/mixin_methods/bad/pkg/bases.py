"""A base of the project between the mixin and a registered class: it registers nothing itself."""
from .mixins import TreeMixin


class Base(TreeMixin):
    pass
