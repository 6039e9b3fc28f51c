"""Matches: a series of deals with running totals (DDZ-34), each deal saved as a record."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from shedkit.core.errors import OptionError
from shedkit.core.records import save_record
from shedkit.core.rng import derive_seed

__all__ = ["DealResult", "Match", "play_deal"]


@dataclass(frozen=True, slots=True)
class DealResult:
    """One finished deal of a match."""

    number: int
    seed: int
    returns: tuple[int, ...]
    thrown_in: bool
    #: ``None`` in `Match.results` of a match that does not keep its records.
    record: dict[str, Any] | None
    path: Path | None


@dataclass
class Match:
    """Deals in sequence with running totals.

    Each deal's set-up comes from ``game.match_setup(deals_played, previous)``,
    ``previous`` being the last deal that counted (dealer rotation, the tax).
    The match ends after ``deals`` deals played or when a seat's total reaches
    the positive ``target`` (either may be ``None``); a seat that far behind does not
    end it (DDZ-34, PRE-12, DOM-11). A game whose rules end a match themselves
    has ``match_over(totals, deals_played)``, which ends it too (TG-41). Thrown-in deals are
    redealt and do not count (DDZ-08). With ``records_dir`` each deal's record
    is written there as ``deal-NNNN.json`` the moment the deal ends. With
    ``keep_records=False`` the results keep no record (``finish_deal`` still
    returns it): a server that stores every record elsewhere keeps a long
    match's memory flat.
    """

    game: Any
    seed: int = 0
    deals: int | None = None
    target: int | None = None
    records_dir: Path | None = None
    keep_records: bool = True
    totals: list[int] = field(init=False)
    results: list[DealResult] = field(init=False, default_factory=list)
    attempts: int = field(init=False, default=0)
    previous: Any = field(init=False, default=None)

    def __post_init__(self) -> None:
        if self.deals is not None and self.deals < 1:
            raise OptionError(f"deals must be at least 1, not {self.deals}")
        if self.target is not None and self.target < 1:
            raise OptionError(f"target must be at least 1, not {self.target}")
        self.totals = [0] * self.game.num_players

    @property
    def deals_played(self) -> int:
        """Deals that counted (thrown-in deals excluded)."""
        return sum(1 for r in self.results if not r.thrown_in)

    @property
    def is_over(self) -> bool:
        """True once the deal limit or the target score is reached, or the game's own end."""
        if self.deals is not None and self.deals_played >= self.deals:
            return True
        rule = getattr(self.game, "match_over", None)
        if rule is not None and rule(self.totals, self.deals_played):
            return True
        return self.target is not None and any(t >= self.target for t in self.totals)

    def next_deal(self) -> Any:
        """The next deal, seeded from the match seed and the deal attempt number."""
        if self.is_over:
            raise OptionError("the match is over")
        seed = derive_seed(self.seed, "deal", self.attempts)
        self.attempts += 1
        setup = self.game.match_setup(self.deals_played, self.previous)
        return self.game.new_deal(seed=seed, **setup)

    def finish_deal(self, state: Any) -> DealResult:
        """Add a finished deal's returns to the totals and save its record."""
        if not state.is_over:
            raise OptionError("finish_deal needs a finished deal")
        returns = tuple(state.returns())
        thrown_in = bool(getattr(state, "thrown_in", False))
        for seat, value in enumerate(returns):
            self.totals[seat] += value
        record = state.record()
        number = len(self.results) + 1
        path = None
        if self.records_dir is not None:
            path = save_record(record, Path(self.records_dir) / f"deal-{number:04d}.json")
        result = DealResult(number, state.seed, returns, thrown_in, record, path)
        self.results.append(result if self.keep_records else replace(result, record=None))
        if not thrown_in:
            self.previous = state
        return result


def play_deal(state: Any, agents: Sequence[Any]) -> Any:
    """Play ``state`` to the end with one agent per seat, each seeing only its view."""
    while not state.is_over:
        seat = state.current_player
        state.apply(agents[seat].act(state.view(seat)))
    return state
