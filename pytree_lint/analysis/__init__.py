"""The semantic model every rule asks: built on Python's `ast`, never importing or running the code."""
