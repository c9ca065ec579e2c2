"""What a rule is: a code, a name, the words that must appear in a file for it to matter, and `check`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, ClassVar

from ..analysis.record import record
from ..knowledge.triggers import REGISTRATION_TRIGGERS

if TYPE_CHECKING:
    import ast

    from ..analysis.fixes import FixPlan
    from ..analysis.module import ModuleAnalysis
    from ..runtime.probes import Probe

@record
class Report:
    node: ast.AST
    message: str
    # What the runtime verifier looks for: the registered class the finding is about (for PTL402, the jitted
    # function, which jit names in its error).
    target: str | None = None
    # The attribute of the target's instances that holds the value the finding is about, where one does:
    # the probe changes that value, not another of the same kind.
    member: str | None = None
    fix: FixPlan | None = None  # an edit that mends it, labelled safe (applied by --fix) or unsafe (only shown)


class Rule:
    code: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]
    # A file that contains none of these strings cannot produce a finding and is never parsed.
    triggers: ClassVar[tuple[str, ...]] = REGISTRATION_TRIGGERS
    # When given, the file must contain one of these too (PTL402: `jit` matters only beside a NamedTuple or
    # dataclass-style class).
    requires: ClassVar[tuple[str, ...]] = ()
    # How `pytree-lint verify` proves a finding at run time (see runtime/probes.py); None: it cannot.
    runtime: ClassVar[Probe | None] = None

    @classmethod
    def concerns(cls, present: set[str]) -> bool:
        """Given the words of `triggers` and `requires` that a file contains, could the rule find anything?"""
        return not present.isdisjoint(cls.triggers) and (not cls.requires or not present.isdisjoint(cls.requires))

    def check(self, analysis: ModuleAnalysis) -> Iterator[Report]:
        raise NotImplementedError

    @classmethod
    def documentation(cls) -> str:
        """The rule's documentation: the docstring of the module that defines it."""
        import inspect

        return inspect.getdoc(inspect.getmodule(cls)) or cls.summary
