"""DouZero-compatible agents: DouZero's trained networks playing from shedkit's views.

- [`encoding`][shedkit.agents.douzero.encoding]: DouZero's observation (``x``,
  ``z``, its legal actions) of a position, computed from a `View`;
- [`model`][shedkit.agents.douzero.model]: its networks in numpy, and the weights
  files (``.npz``, and PyTorch's ``.ckpt`` read without PyTorch by
  [`checkpoint`][shedkit.agents.douzero.checkpoint], which refuses anything but tensors);
- [`agent`][shedkit.agents.douzero.agent]: the agent ``douzero``, made with
  ``make_agent("douzero", game, weights=DIR)`` or named ``douzero:DIR``.

These modules need numpy (the ``[rl]`` extra); importing this package does not,
so the agent is registered in any install and says what to install when made.
"""

from __future__ import annotations

from typing import Any

from shedkit.agents.base import Agent, register_agent

__all__: list[str] = []


def _make(game: Any, seed: int, **kwargs: Any) -> Agent:
    """Build ``douzero`` (numpy is imported here, when the agent is made)."""
    from shedkit.agents.douzero.agent import DouZeroAgent

    return DouZeroAgent(game, seed, **kwargs)


register_agent("douzero", "doudizhu", _make, argument="weights")
