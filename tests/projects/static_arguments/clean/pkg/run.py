from .layers import crop, pad, padded
from .train import step
from .utils import make_config


def local_config():
    return (("decay", 0.99),)


def main(params):
    config = {"decay": 0.9}
    config = tuple(config.items())
    return step(params, config)


def with_local_config(params):
    return step(params, local_config())


def with_made_config(params):
    return step(params, make_config())


def with_options(params, options):
    return step(params, options)


def padded_once(x):
    return pad(x, sizes=((1, 1),))


def cropped(x):
    return crop(x, widths=(1, 2))


def padded_twice(x):
    return padded(x, ((2, 2),))
