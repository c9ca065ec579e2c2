"""Pipes of another module than their base's: a valve, whose bore is a float, hashable, and a gate
deriving from it here, which keeps it."""
from .pipes import Pipe


class Valve(Pipe):
    def __init__(self, flow, width):
        self.flow = flow
        self.bore = float(width)


class Gate(Valve):
    def close(self):
        return Gate(self.flow * 0, self.bore)
