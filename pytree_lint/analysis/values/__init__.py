"""What an expression can evaluate to: abstract values with their provenance (`Evidence`, `Kind`), inferred
per expression and summarised per function and per class attribute, never path by path."""
