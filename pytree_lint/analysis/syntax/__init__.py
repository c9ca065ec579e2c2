"""What one module says, read from its `ast` alone: its text and positions, the names its imports bind, and
the semantic model (classes, functions, bindings, calls) every other part of the analysis reads."""
