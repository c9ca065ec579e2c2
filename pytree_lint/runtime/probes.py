"""How a rule's finding is proved at run time: the three kinds of probe a rule can name.

- `ExamplesProbe`: the module's `examples()` gives equal-valued inputs in the order a program passes
  them; the rule's function observes them under `jax.jit` (aux_data, traces, errors, round trips).
- `ReproduceProbe`: the module's `reproduce()` runs the code path; the finding is confirmed when it raises
  the predicted error, tied to what the finding reports (its line, its function, a method of its class).
- `TreeCallProbe`: JAX's tree functions are watched from before the module is imported; `reproduce()`
  runs, and the rule's judge reads the calls made at the finding's line.
- `StateProbe`: `reproduce()` returns a Flax NNX model as the program leaves it; the rule's function reads
  its state (which Params `nnx.grad` and `nnx.Optimizer` would see) at the attribute the finding names.

Each rule's module says which it uses (`Rule.runtime`), beside its check. Nothing here imports JAX.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from contextlib import contextmanager
from typing import Any

from ..analysis.record import record
from .observe import (
    TREE_CALLS,
    Outcome,
    TreeCallRecord,
    aux_values,
    first_line,
    is_named,
    jax_module,
    watch_constructions,
)

# What a module must give for a probe that runs examples, said where none is found.
_HOW = ("define examples() returning two equal inputs in the module, or examples_<Class>() or examples() in a "
        "file given with `--examples FILE`")
NO_EXAMPLE = f"the module defines no examples() hook, nor reproduce(): {_HOW}"
NO_EXAMPLE_WITH_REPRODUCE = f"this rule is shown by running examples, not reproduce(): {_HOW}"


@record
class ExamplesProbe:
    """`observe(examples, target)`: what the examples holding the finding's class show;
    `observe(examples, target, member)` for a probe that acts on the attribute holding the value."""

    observe: Callable[..., Outcome]
    # A structural finding (PTL3xx, PTL401): without examples, `reproduce()` may run its code path.
    structural: bool = False
    by_member: bool = False
    # The errors the rule predicts (message parts): `reproduce()` raising one that names the finding's
    # class confirms it wherever it is raised (JAX calls an unflatten from its own machinery).
    signatures: tuple[str, ...] = ()

    def run(self, module: Any, finding: dict, examples_module: Any = None) -> Outcome:
        target = finding.get("target")
        hook = _examples_hook(module, examples_module, target)
        if hook is None:
            if self.structural and getattr(module, "reproduce", None) is not None:
                with _instances_built(module, target) as built:  # the code path the finding is about, run
                    ran = ReproduceProbe(ANY_ERROR, "line or method", self.signatures).run(module, finding)
                if ran.status == "confirmed":
                    return ran
                if built:  # a silent bug: what reproduce() built, looked at (the same object twice will do)
                    seen = self._observed([built[0], built[-1]], finding)
                    if seen.status == "confirmed":
                        return Outcome("confirmed", f"{seen.evidence} (on the objects reproduce() built)")
                made = self._on_synthesized(module, finding)  # else the class itself, built by the verifier
                return made if made.status == "confirmed" else ran
            return self._on_synthesized(module, finding)
        try:
            examples = [e for e in hook() if _holds_target(e, target)]
        except Exception as error:
            return Outcome("error", f"examples() raised {first_line(error)}")
        if len(examples) < 2:
            return Outcome("no-example", f"examples() gives fewer than two inputs holding a `{target}`")
        return self._observed(examples, finding)

    def _observed(self, examples: list, finding: dict) -> Outcome:
        jax_module().clear_caches()
        try:
            if self.by_member:
                return self.observe(examples, finding.get("target"), finding.get("member"))
            return self.observe(examples, finding.get("target"))
        except Exception as error:
            return Outcome("error", f"the probe raised {first_line(error)}")

    def _on_synthesized(self, module: Any, finding: dict) -> Outcome:
        """No example given: the class built by the verifier from its constructor (see synthesize.py)."""
        from .synthesize import Unbuildable, synthesized_examples

        how = NO_EXAMPLE_WITH_REPRODUCE if getattr(module, "reproduce", None) is not None else NO_EXAMPLE
        try:
            examples = synthesized_examples(module, finding.get("target"))
        except Unbuildable as reason:
            return Outcome("no-example", f"{how} (and {reason})")
        outcome = self._observed(examples, finding)
        return Outcome(outcome.status, f"{outcome.evidence} (on synthesized examples)")


@contextmanager
def _instances_built(module: Any, target: str | None):
    """The objects of the class `target` of `module` built while the block runs (its constructor watched)."""
    cls = getattr(module, target, None) if target else None
    built: list[Any] = []
    if not isinstance(cls, type):
        yield built
        return
    undo = watch_constructions(cls, lambda node: built.append(node) if type(node) is cls else None)
    try:
        yield built
    finally:
        if undo is not None:
            undo()


def _examples_hook(module: Any, examples_module: Any, target: str | None):
    """`examples()` of the module, else `examples_<Class>()` or `examples()` of the examples file."""
    for source in (module, examples_module):
        if source is None:
            continue
        for name in (f"examples_{target}", "examples") if source is examples_module else ("examples",):
            hook = getattr(source, name, None)
            if callable(hook):
                return hook
    return None


def _holds_target(example: Any, target: str | None) -> bool:
    try:
        return bool(aux_values(example, target)) if target else True
    except Exception:  # a flatten that raises (the finding may be about it): judge the example itself
        return target is not None and is_named(type(example), target)


@record
class ReproduceProbe:
    """What `reproduce()` must raise: an error whose message holds one of `symptoms` (or whose class, or a
    base of it, is named so), tied to the finding by `where`: "line" (the traceback passes the finding's
    line), "function" (the message names the function the finding is about, as jit's argument errors do)
    or "method" (the traceback passes a method of the finding's class); "attribute" (the message names the
    attribute the finding is about, as Flax NNX's errors do), "attribute or method", "line or method";
    "call" (the traceback passes a call of the finding's function, in any module, for a finding at its
    declaration)."""

    symptoms: tuple[str, ...]
    where: str
    signatures: tuple[str, ...] = ()  # see ExamplesProbe.signatures

    def run(self, module: Any, finding: dict, examples_module: Any = None) -> Outcome:
        hook = getattr(module, "reproduce", None)
        if hook is None:
            return Outcome("no-example", "the module defines no reproduce() hook")
        outcome, paths = self._judged(hook, "reproduce()", module, finding)
        # A module of several findings: reproduce() returns the code paths (functions), each run in turn,
        # since the first error ends a path; the finding is confirmed by one that raises from it.
        for number, path in enumerate(paths, 1):
            ran, _ = self._judged(path, f"path {number} of reproduce()", module, finding)
            if ran.status == "confirmed":
                return ran
            if number == 1:
                outcome = ran  # what the first path showed, when none confirms
        return outcome

    def _judged(self, path: Callable[[], Any], name: str, module: Any, finding: dict) -> tuple[Outcome, list]:
        """What running `path` shows of the finding, and the code paths it returned (a list of functions)."""
        jax_module().clear_caches()
        try:
            returned = path()
        except Exception as error:
            if not self._shows(error):
                return Outcome("unconfirmed", f"{name} raised an unrelated {first_line(error)}"), []
            tied = self._tie(module, finding, error)
            if tied is not None:
                return Outcome("confirmed", f"{name} raised, {tied}, {first_line(error)}"), []
            return Outcome("unconfirmed", f"{name} raised {first_line(error)}, but not from what this finding "
                                          f"reports (line {finding['line']}, `{finding.get('target')}`)"), []
        return Outcome("unconfirmed", f"{name} returned without an error"), _code_paths(returned)

    def _shows(self, error: BaseException) -> bool:
        names = {kind.__name__ for kind in type(error).__mro__}
        return any(symptom in str(error) or symptom in names for symptom in self.symptoms)

    def _tie(self, module: Any, finding: dict, error: BaseException) -> str | None:
        """Where the error shows it comes from the finding; None if it does not."""
        module_file = os.path.abspath(module.__file__)
        import traceback  # here: the static path imports this module with every rule, and never calls this

        every_frame = traceback.extract_tb(error.__traceback__)
        frames = [frame for frame in every_frame if os.path.abspath(frame.filename) == module_file]
        target = finding.get("target")
        if self.where == "line":
            return f"at line {finding['line']}" if any(f.lineno == finding["line"] for f in frames) else None
        if self.where == "function":
            return f"naming `{target}`" if f"<function {target} at" in str(error) else None
        if self.where == "call":  # the call may be in another module of the project
            call = next((f for f in every_frame if f"{target}(" in (f.line or "")), None)
            if call is None:
                return None
            place = f"line {call.lineno}" if os.path.abspath(call.filename) == module_file else \
                f"{os.path.relpath(call.filename)}:{call.lineno}"
            return f"calling `{target}` at {place}"
        if self.where == "line or method" and any(f.lineno == finding["line"] for f in frames):
            return f"at line {finding['line']}"
        member = finding.get("member")
        if self.where.startswith("attribute") and member and (f"'{member}'" in str(error)
                                                              or f".{member}" in str(error)):
            return f"naming the attribute `{member}`"
        if self.where == "attribute":
            return None
        methods = _class_methods(module, target)
        inside = next((f for f in frames if f.name in methods), None)
        if inside is not None:
            return f"in `{target}.{inside.name}` (line {inside.lineno})"
        signature = next((s for s in self.signatures if s in str(error)), None)
        if signature is not None and target and re.search(rf"\b{re.escape(target)}\b", str(error)):
            return f"with the error the rule predicts (`{signature}`) about `{target}`"
        return None


def _code_paths(returned: Any) -> list[Callable[[], Any]]:
    """The code paths a `reproduce()` returned: a list or tuple of functions, each run on its own (none for
    anything else it returns, such as the model a StateProbe reads)."""
    if isinstance(returned, (list, tuple)) and returned and all(callable(path) for path in returned):
        return list(returned)
    return []


def _class_methods(module: Any, target: str | None) -> set[str]:
    """The names of the functions defined on the class `target` of the module and on its bases there."""
    cls = getattr(module, target or "", None)
    if not isinstance(cls, type):
        return set()
    return {name for klass in cls.__mro__ if klass.__module__ == module.__name__ for name in vars(klass)}


@record
class TreeCallProbe:
    """`judge(record)`: the outcome a watched tree call shows, or None when it does not show the symptom."""

    judge: Callable[[TreeCallRecord], Outcome | None]
    watches_tree_calls = True

    def run(self, module: Any, finding: dict, examples_module: Any = None) -> Outcome:
        hook = getattr(module, "reproduce", None)
        if hook is None:
            return Outcome("no-example", "the module defines no reproduce() hook")
        import warnings
        line = finding["line"]
        raised = ""  # the calls made when the module was imported count too: module-level code is a code path
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                paths = _code_paths(hook())
            except Exception as error:  # the misuse often breaks the code after it: the calls made still count
                paths, raised = [], f"; reproduce() then raised {first_line(error)}"
            for number, path in enumerate(paths, 1):
                try:
                    path()
                except Exception as error:
                    raised += f"; path {number} of reproduce() raised {first_line(error)}"
        module_file = os.path.abspath(module.__file__)
        here = [r for r in TREE_CALLS if os.path.abspath(r.filename) == module_file and r.line == line]
        for call in here:
            outcome = self.judge(call)
            if outcome is not None:
                return Outcome(outcome.status, outcome.evidence + raised)
        if not here:
            return Outcome("unconfirmed", f"reproduce() made no tree call at line {line}{raised}")
        return Outcome("unconfirmed", f"the {len(here)} tree calls at line {line} did not show the predicted "
                                      f"symptom{raised}")


@record
class StateProbe:
    """`observe(model, target, member)`: what the model `reproduce()` returns shows at the attribute
    `member` of its class `target`."""

    observe: Callable[..., Outcome]

    def run(self, module: Any, finding: dict, examples_module: Any = None) -> Outcome:
        hook = getattr(module, "reproduce", None)
        if hook is None:
            return Outcome("no-example", "the module defines no reproduce() hook returning the model")
        try:
            model = hook()
        except Exception as error:
            return Outcome("unconfirmed", f"reproduce() raised {first_line(error)}")
        if model is None:
            return Outcome("no-example", "reproduce() returned no model")
        try:
            return self.observe(model, finding.get("target"), finding.get("member"))
        except Exception as error:
            return Outcome("error", f"the probe raised {first_line(error)}")


Probe = ExamplesProbe | ReproduceProbe | TreeCallProbe | StateProbe
# A structural finding (a flatten/unflatten contract, a child jit rejects) of a module with `reproduce()`
# and no `examples()`: any error its code path raises passing the finding's line or a method of its class
# (or, raised anywhere, one its rule predicts about its class).
ANY_ERROR = ("Exception",)
