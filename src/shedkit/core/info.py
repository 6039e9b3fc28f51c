"""Game metadata in the manner of OpenSpiel's GameType and GameInfo."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["GameInfo"]


@dataclass(frozen=True, slots=True)
class GameInfo:
    """Static facts about a game under its options.

    ``chance`` says the deal is random (resolved inside ``new_deal`` from the
    seed); ``hidden_information`` that views differ per seat. Score bounds are
    per seat and per deal.
    """

    name: str
    num_players: int
    chance: bool
    hidden_information: bool
    zero_sum: bool
    min_score: int
    max_score: int
    num_actions: int
    max_game_length: int
    #: The points a match plays to when the rules set one (Dominoes, DOM-11), else None.
    match_target: int | None = None
    #: The seats that play and score together (Dominoes' partnerships, DOM-02), else None.
    teams: tuple[tuple[int, ...], ...] | None = None
