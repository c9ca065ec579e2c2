from .layers import crop, pad, padded
from .train import step
from .utils import make_config


def local_config():
    return {"decay": 0.99}


def main(params, x):
    config = {"decay": 0.9}
    params = step(params, config)  # expect: PTL403
    params = step(params, local_config())  # expect: PTL403
    model_kwargs = make_config()
    params = step(params, model_kwargs)  # expect: PTL403
    return params, pad(x, sizes=[(1, 1)])  # expect: PTL403


def cropped(x):
    return crop(x, widths=[1, 2])  # expect: PTL403


def padded_twice(x):
    return padded(x, [(2, 2)])  # expect: PTL403
