"""A learned auction for the douzero agent: shedkit's own addition to DouZero.

DouZero plays only the card play; shedkit's Dou Di Zhu starts with the auction
(DDZ-05 … DDZ-09). ``shedkit train doudizhu --bid`` also learns a small network
that values each bid from the bidder's hand and the bids so far, trained
by Deep Monte-Carlo on the deal's score (stake, bombs and spring included);
a weights folder holding ``bidding.npz`` (or ``bidding.ckpt``) makes the agent
bid with it instead of with greedy's rule.

Its input (`bid_features`, 74 values): the hand's 17 cards (DouZero's 54),
the last three bids before this one, newest first (one-hot over pass, 1, 2, 3;
zeros where there were fewer), the highest bid so far (one-hot 0 … 3) and the
bid scored (one-hot pass, 1, 2, 3). Three dense layers (``dense1`` … ``dense3``,
256, 256, 1) give its value.

>>> import shedkit
>>> state = shedkit.make("doudizhu").new_deal(seed=3)
>>> view = state.view(state.current_player)
>>> bid_features(view).shape
(4, 74)
>>> BidNet(random_bid_params(seed=1)).values(bid_features(view)).shape
(4,)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, TypeAlias

from shedkit.agents.douzero.checkpoint import WeightsError
from shedkit.agents.douzero.encoding import card_counts_row
from shedkit.agents.douzero.model import dense_shapes
from shedkit.core.extras import require_extra
from shedkit.doudizhu.combos import card_rank
from shedkit.doudizhu.view import View

try:
    import numpy as np
    from numpy.typing import NDArray
except ImportError:
    require_extra("rl", "the douzero agent (shedkit.agents.douzero)", "numpy")
    raise

__all__ = [
    "BID_FEATURES",
    "BID_WIDTH",
    "BidNet",
    "bid_features",
    "bid_param_shapes",
    "bid_value",
    "random_bid_params",
]

#: Values in one row of `bid_features`.
BID_FEATURES: Final = 54 + 3 * 4 + 4 + 4
#: Units of each hidden layer of the bidding network.
BID_WIDTH: Final = 256
_LAYERS: Final = 3

Array: TypeAlias = "NDArray[np.float32]"


def bid_value(move: Any) -> int:
    """The bid a move makes: 0 for a pass, else 1 … 3."""
    return 0 if move.kind == "pass" else int(move.rank)


def bid_features(view: View) -> NDArray[np.int8]:
    """One row per legal move of ``view`` (a bidder's own view in the auction)."""
    if view.phase != "auction" or view.seat is None:
        raise ValueError("bid_features needs a seat's own view during the auction")
    base = np.zeros(54 + 3 * 4 + 4, dtype=np.int8)
    base[:54] = card_counts_row([card_rank(c) for c in view.hand])
    for i, (_, move) in enumerate(reversed(view.bids[-3:])):
        base[54 + 4 * i + bid_value(move)] = 1
    high = max((bid_value(m) for _, m in view.bids), default=0)
    base[54 + 12 + high] = 1
    rows = np.zeros((len(view.legal_moves), BID_FEATURES), dtype=np.int8)
    rows[:, : base.size] = base
    for i, move in enumerate(view.legal_moves):
        rows[i, base.size + bid_value(move)] = 1
    return rows


def bid_param_shapes() -> dict[str, tuple[int, ...]]:
    """Every parameter of the bidding network, by its PyTorch name, with its shape."""
    return dense_shapes(BID_FEATURES, BID_WIDTH, _LAYERS)


def random_bid_params(seed: int = 0) -> dict[str, Array]:
    """Parameters drawn as PyTorch initialises linear layers (uniform ±1/√fan-in), seeded."""
    rng = np.random.default_rng(seed)
    out: dict[str, Array] = {}
    for name, shape in bid_param_shapes().items():
        fan_in = bid_param_shapes()[name.rsplit(".", 1)[0] + ".weight"][1]
        bound = 1.0 / np.sqrt(fan_in)
        out[name] = rng.uniform(-bound, bound, size=shape).astype(np.float32)
    return out


class BidNet:
    """The bidding network in numpy."""

    def __init__(self, params: Mapping[str, Any]) -> None:
        layers = []
        for name, shape in bid_param_shapes().items():
            if name not in params:
                raise WeightsError(f"not a bidding network: no {name}")
            array = np.ascontiguousarray(params[name], dtype=np.float32)
            if array.shape != shape:
                raise WeightsError(f"not a bidding network: {name} is {array.shape}, not {shape}")
            layers.append(array)
        self.params = dict(zip(bid_param_shapes(), layers, strict=True))
        self._layers = [(w.T.copy(), b) for w, b in zip(layers[::2], layers[1::2], strict=True)]

    def values(self, rows: NDArray[Any]) -> Array:
        """The value of each row of `bid_features`."""
        y = np.asarray(rows, dtype=np.float32)
        if y.ndim != 2 or y.shape[1] != BID_FEATURES:
            raise ValueError(f"rows must be n × {BID_FEATURES}, not {y.shape}")
        for i, (w, b) in enumerate(self._layers):
            if i:
                np.maximum(y, 0.0, out=y)
            y = y @ w + b
        out: Array = y[:, 0]
        return out
