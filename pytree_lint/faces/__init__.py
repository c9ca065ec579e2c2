"""The ways in: the `pytree-lint` command (cli), the flake8 plugin, the language server, the output formats.
Thin shells over `engine`: every face reports the same findings for the same file. (The pre-commit hook is
the command, declared in .pre-commit-hooks.yaml.)"""
