"""A module among the others of its project: the project's modules located and summarised (each once, cached
on disk by content hash), and names followed across them."""
