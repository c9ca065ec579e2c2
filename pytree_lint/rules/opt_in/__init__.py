"""PTL9xx: the opt-in tier, advice whose harm is conditional; off by default, on with
`--extend-select PTL9` or by code."""
