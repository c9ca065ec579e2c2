import jax

from .params import Params

jax.tree_util.register_dataclass(Params, data_fields=["w"], meta_fields=["weights_mask"])
