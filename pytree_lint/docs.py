"""docs/rules.md, generated from the rules' own documentation (`python -m pytree_lint.docs`).

A rule's docstring has sections (`What it does:`, `Why is this bad:`, `Example:`, `Use instead:`,
`Known limits:`, and `Fix safety:` for rules with a fix) whose text is indented by four spaces, and code
by eight: the same text `pytree-lint rule CODE` prints.
"""

from __future__ import annotations

from .rules import ALL_RULES

HEADER = """# pytree-lint rules

Generated from each rule's documentation by `python -m pytree_lint.docs > docs/rules.md`;
`pytree-lint rule CODE` prints the same text. Measured behaviour: jax 0.10.2 on CPU.
"""


def _section_markdown(lines: list[str]) -> list[str]:
    """Section body: prose dedented by four spaces, deeper-indented runs as Python code blocks."""
    out: list[str] = []
    in_code = False
    for line in lines:
        is_code = line.startswith("        ") or (in_code and not line.strip())
        if is_code and not in_code:
            out.append("```python")
            in_code = True
        elif not is_code and in_code:
            while out and not out[-1].strip():
                out.pop()
            out.extend(["```", ""])
            in_code = False
        out.append(line[8:] if in_code else line[4:])
    if in_code:
        while out and not out[-1].strip():
            out.pop()
        out.append("```")
    return out


def rule_markdown(rule) -> str:
    documentation = rule.documentation().splitlines()
    out = [f"## {rule.code}", "", f"**{rule.name}**: {rule.summary}"]
    body: list[str] = []
    for line in documentation[1:]:  # the first line repeats the code and name
        if line and not line.startswith(" ") and line.endswith(":"):
            out.extend(_section_markdown(body))
            out.extend(["", f"### {line[:-1]}", ""])
            body = []
        else:
            body.append(line)
    out.extend(_section_markdown(body))
    text = "\n".join(out)
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text.rstrip() + "\n"


def rules_markdown() -> str:
    return HEADER + "".join("\n" + rule_markdown(rule) for rule in ALL_RULES)


if __name__ == "__main__":
    print(rules_markdown(), end="")
