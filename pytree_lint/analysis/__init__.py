"""The analysis layer: what rules ask about a module, computed once per module and shared.

`module.ModuleAnalysis` is the entry point; `kinds` holds the vocabulary. This package's import is kept
free of libcst, so a run that parses nothing never loads it.
"""
