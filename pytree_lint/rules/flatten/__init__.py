"""PTL3xx: the flatten/unflatten contract of a registration."""
