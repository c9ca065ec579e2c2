"""The settings every model starts from."""

DEFAULTS = {"depth": 2, "width": 16}
