from .padding import PadConfig


def default_config():
    return PadConfig(widths=[(1, 1)])
