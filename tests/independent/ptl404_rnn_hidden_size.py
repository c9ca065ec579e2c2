# expected: PTL404
# misuse: _rnn_flatten returns hidden_size among the children, and ElmanRNN.initial_carry uses it as a shape in jnp.zeros; report line 39
"""An Elman RNN that forecasts the next value of a noisy sine wave."""
import jax
import jax.numpy as jnp
from jax import tree_util


class ElmanRNN:
    def __init__(self, w_in, w_rec, w_out, hidden_size):
        self.w_in = w_in
        self.w_rec = w_rec
        self.w_out = w_out
        self.hidden_size = hidden_size

    @classmethod
    def init(cls, key, d_in, hidden_size, d_out):
        k1, k2, k3 = jax.random.split(key, 3)
        w_in = jax.random.normal(k1, (d_in, hidden_size)) * 0.3
        w_rec = jax.random.orthogonal(k2, hidden_size) * 0.9
        w_out = jax.random.normal(k3, (hidden_size, d_out)) * 0.3
        return cls(w_in, w_rec, w_out, hidden_size)

    def initial_carry(self, batch_size):
        return jnp.zeros((batch_size, self.hidden_size))

    def cell(self, h, x):
        h = jnp.tanh(x @ self.w_in + h @ self.w_rec)
        return h, h @ self.w_out

    def __call__(self, xs):
        # xs: (time, batch, d_in)
        h0 = self.initial_carry(xs.shape[1])
        _, ys = jax.lax.scan(self.cell, h0, xs)
        return ys


def _rnn_flatten(rnn):
    return (rnn.w_in, rnn.w_rec, rnn.w_out, rnn.hidden_size), None


def _rnn_unflatten(aux_data, children):
    return ElmanRNN(*children)


tree_util.register_pytree_node(ElmanRNN, _rnn_flatten, _rnn_unflatten)


@jax.jit
def forecast_error(rnn, xs):
    preds = rnn(xs[:-1])
    return jnp.mean((preds - xs[1:]) ** 2)


def examples():
    key = jax.random.PRNGKey(0)
    return [ElmanRNN.init(key, 1, 16, 1), ElmanRNN.init(key, 1, 16, 1)]


def reproduce():
    key = jax.random.PRNGKey(7)
    t = jnp.linspace(0.0, 8.0 * jnp.pi, 100)[:, None, None]
    phases = jax.random.uniform(key, (1, 4, 1)) * 2.0 * jnp.pi
    xs = jnp.sin(t + phases) + 0.05 * jax.random.normal(key, (100, 4, 1))
    rnn = ElmanRNN.init(key, 1, 16, 1)
    return float(forecast_error(rnn, xs))
