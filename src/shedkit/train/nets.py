"""The learner's networks in PyTorch, with DouZero's layers and parameter names.

`PositionNet` is DouZero's ``LandlordLstmModel`` / ``FarmerLstmModel`` (an LSTM
of 128 over ``z``, then five dense layers of 512 and one of 1), so a state
dict saved from it is a DouZero checkpoint: DouZero's ``DeepAgent`` loads it
and shedkit's numpy agent reads it without PyTorch. `BidNet` is the auction's
network of `shedkit.agents.douzero.bidding`.
"""

from __future__ import annotations

from typing import Any

from shedkit.agents.douzero.bidding import BID_FEATURES, BID_WIDTH
from shedkit.agents.douzero.encoding import X_SIZE
from shedkit.agents.douzero.model import HIDDEN, WIDTH
from shedkit.core.extras import require_extra

try:
    import numpy as np
    import torch
    from numpy.typing import NDArray
    from torch import nn
except ImportError:
    require_extra("train", "shedkit train", "torch", "numpy")
    raise

__all__ = ["BidNet", "PositionNet", "make_net", "numpy_params"]


class PositionNet(nn.Module):
    """One position's value network, DouZero's layers under DouZero's names."""

    def __init__(self, position: str) -> None:
        super().__init__()
        if position not in X_SIZE:
            raise ValueError(f"unknown position {position!r}")
        self.lstm = nn.LSTM(162, HIDDEN, batch_first=True)
        self.dense1 = nn.Linear(X_SIZE[position] + HIDDEN, WIDTH)
        self.dense2 = nn.Linear(WIDTH, WIDTH)
        self.dense3 = nn.Linear(WIDTH, WIDTH)
        self.dense4 = nn.Linear(WIDTH, WIDTH)
        self.dense5 = nn.Linear(WIDTH, WIDTH)
        self.dense6 = nn.Linear(WIDTH, 1)

    def forward(self, z: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        """The value of each row of ``x`` (``n × x``) after its history ``z`` (``n × 5 × 162``)."""
        out, _ = self.lstm(z)
        y = torch.cat([out[:, -1, :], x], dim=-1)
        for layer in (self.dense1, self.dense2, self.dense3, self.dense4, self.dense5):
            y = torch.relu(layer(y))
        value: torch.Tensor = self.dense6(y).squeeze(-1)
        return value


class BidNet(nn.Module):
    """The auction's value network (`shedkit.agents.douzero.bidding`)."""

    def __init__(self) -> None:
        super().__init__()
        self.dense1 = nn.Linear(BID_FEATURES, BID_WIDTH)
        self.dense2 = nn.Linear(BID_WIDTH, BID_WIDTH)
        self.dense3 = nn.Linear(BID_WIDTH, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """The value of each row of bid features."""
        y = torch.relu(self.dense1(x))
        y = torch.relu(self.dense2(y))
        value: torch.Tensor = self.dense3(y).squeeze(-1)
        return value


def make_net(name: str) -> nn.Module:
    """A fresh network: a position's (``landlord`` …) or the auction's (``bidding``)."""
    return BidNet() if name == "bidding" else PositionNet(name)


def numpy_params(module: nn.Module) -> dict[str, NDArray[Any]]:
    """The module's parameters as float32 arrays, by name (for the numpy actors)."""
    return {k: v.detach().cpu().numpy().astype(np.float32) for k, v in module.state_dict().items()}
