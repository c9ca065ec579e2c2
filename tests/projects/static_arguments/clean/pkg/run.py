from .layers import crop, pad, padded
from .train import step
from .utils import make_config


def local_config():
    return (("decay", 0.99),)


def main(params, x, options):
    config = {"decay": 0.9}
    config = tuple(config.items())
    params = step(params, config)
    params = step(params, local_config())
    params = step(params, make_config())
    params = step(params, options)
    return params, pad(x, sizes=((1, 1),))


def cropped(x):
    return crop(x, widths=(1, 2))


def padded_twice(x):
    return padded(x, ((2, 2),))
