"""What every game's encoding provides: a flat observation, a mask, action features.

An encoding turns a seat's `View` into numbers; it never sees a state.
Observations are ``float32`` vectors in ``[0, 1]`` made of named *segments*
(``encoding.segments``), so a reader can find each feature by name and offset.
Seats inside an observation are *relative*: position 0 is the observing seat,
position ``k`` the seat ``k`` places after it in turn order, so a policy
learns one thing per relative position whichever seat it plays.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

__all__ = ["Encoding", "Layout", "move_mask", "render_state"]


class Layout:
    """Offsets of named segments in a flat vector, fixed once per encoding.

    >>> layout = Layout([("hand", 54), ("role", 4)])
    >>> layout.size, layout.slice("role")
    (58, slice(54, 58, None))
    """

    def __init__(self, segments: list[tuple[str, int]]) -> None:
        self.segments: tuple[tuple[str, int], ...] = tuple(segments)
        self.offsets: dict[str, int] = {}
        offset = 0
        for name, width in segments:
            if name in self.offsets:
                raise ValueError(f"segment {name!r} appears twice")
            self.offsets[name] = offset
            offset += width
        self.size = offset

    def slice(self, name: str) -> slice:
        """Where segment ``name`` lies in the vector."""
        start = self.offsets[name]
        return slice(start, start + dict(self.segments)[name])


class Encoding(Protocol):
    """The numbers one game shows a learner (see each game's module for the layout)."""

    layout: Layout
    num_actions: int
    action_features: NDArray[np.float32]

    def encode(self, view: Any) -> NDArray[np.float32]:
        """The observation vector of ``view`` (shape ``(layout.size,)``, values in [0, 1])."""
        ...

    def mask(self, view: Any) -> NDArray[np.int8]:
        """1 for every legal action id of ``view``, else 0 (all 0 when it is not its turn)."""
        ...

    def render(self, views: list[Any]) -> str:
        """A few lines of text describing the table, from every seat's view."""
        ...


def render_state(encoding: Encoding, state: Any, mode: str | None) -> str | None:
    """A deal as the envs render it: text for "ansi", printed for "human", every hand shown."""
    if mode is None or state is None:
        return None
    text = encoding.render([state.view(s) for s in range(state.num_players)])
    if mode == "human":
        print(text)
        return None
    return text


def move_mask(moves: tuple[Any, ...], num_actions: int) -> NDArray[np.int8]:
    """The int8 mask with a 1 at each move's ``action_id``."""
    mask = np.zeros(num_actions, dtype=np.int8)
    if moves:
        mask[np.fromiter((m.action_id for m in moves), dtype=np.intp, count=len(moves))] = 1
    return mask
