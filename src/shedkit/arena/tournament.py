"""Duplicate tournaments: every deal is played once per arrangement of the agents.

An *arrangement* gives every seat one of the agents, each agent at least once;
with as many agents as seats these are the permutations. Every deal (its
seed, and in Dou Di Zhu its landlord seat) is played under every
arrangement, so each agent meets the same cards in every seat and role: the
luck of the deal cancels out of the comparison.

A game is a pure function of the tournament seed, the deal number and the
arrangement, so results do not depend on how deals are split among workers.

A bot program (``cmd:COMMAND``) is started once per seat in each worker
process and kept across deals (`ExternalSeats`); a bot that breaks the
protocol or its time limits forfeits that game (`GameResult.forfeit_seat`
and ``forfeit_reason``), is stopped, and is started again for its next game.
"""

from __future__ import annotations

import itertools
import multiprocessing.util
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import shedkit
from shedkit.agents import make_agent
from shedkit.agents.external import BotForfeit, BotLimits, ExternalAgent, is_external
from shedkit.arena.games import arena_game
from shedkit.core.errors import OptionError
from shedkit.core.match import play_deal
from shedkit.core.rng import derive_seed

__all__ = [
    "ExternalSeats",
    "GameResult",
    "Tournament",
    "arrangements",
    "close_external",
    "play_deals",
]

#: More arrangements than this make a single deal too costly to replay for each.
MAX_ARRANGEMENTS = 720


def arrangements(num_agents: int, num_seats: int) -> list[tuple[int, ...]]:
    """Every assignment of agents to seats that uses each agent at least once.

    >>> arrangements(2, 3)
    [(0, 0, 1), (0, 1, 0), (0, 1, 1), (1, 0, 0), (1, 0, 1), (1, 1, 0)]
    >>> len(arrangements(3, 3))
    6
    """
    return [
        seats
        for seats in itertools.product(range(num_agents), repeat=num_seats)
        if len(set(seats)) == num_agents
    ]


@dataclass(frozen=True)
class Tournament:
    """What to play: game, agents, deals, seed; ``auction`` lets Dou Di Zhu bid for roles.

    ``roles`` (Dou Di Zhu, two agents) plays only pure roles, as DouZero's
    evaluation does: one agent as landlord against the other in both peasant
    seats, and the reverse, on every deal.

    ``move_time`` and ``startup_time`` (seconds) limit bot programs (``cmd:``
    agents), whose stderr goes to files in ``bot_logs``.
    """

    game: str
    agents: tuple[str, ...]
    deals: int
    seed: int = 0
    preset: str = "standard"
    options: dict[str, Any] = field(default_factory=dict)
    auction: bool = False
    roles: bool = False
    move_time: float = 5.0
    startup_time: float = 10.0
    bot_logs: str = "bot-logs"

    def __post_init__(self) -> None:
        spec = arena_game(self.game)
        game = self.make_game()
        if len(self.agents) < 1:
            raise OptionError("name at least one agent (--agents a,b,...)")
        if len(set(self.agents)) != len(self.agents):
            raise OptionError(f"each agent may be named once, not {','.join(self.agents)}")
        if len(self.agents) > game.num_players:
            raise OptionError(
                f"{len(self.agents)} agents for {game.num_players} seats: name at most "
                f"{game.num_players}"
            )
        self.limits()  # bad limits fail here
        for name in self.agents:
            make_agent(name, game)  # unknown agents and unsupported options fail here
        if not isinstance(self.deals, int) or self.deals < 1:
            raise OptionError(f"deals must be at least 1, not {self.deals!r}")
        if self.auction and "landlord" not in spec.roles:
            raise OptionError(f"--auction is for Dou Di Zhu; {self.game} has no auction")
        if self.roles:
            if "landlord" not in spec.roles or self.auction:
                raise OptionError("--roles is for Dou Di Zhu with a fixed landlord (no --auction)")
            if len(self.agents) != 2:
                raise OptionError(f"--roles needs exactly two agents, not {len(self.agents)}")
        count = len(arrangements(len(self.agents), game.num_players))
        if count > MAX_ARRANGEMENTS:
            raise OptionError(f"{count} seat arrangements is too many (at most {MAX_ARRANGEMENTS})")

    def limits(self) -> BotLimits:
        """The limits of this tournament's bot programs."""
        return BotLimits(self.move_time, self.startup_time, self.bot_logs)

    def make_game(self) -> Any:
        """The game under this tournament's preset and options."""
        return shedkit.make(self.game, preset=self.preset, **self.options)

    def arrangements(self) -> list[tuple[int, ...]]:
        """The seat arrangements every deal is played under."""
        return arrangements(len(self.agents), self.make_game().num_players)

    def games_per_deal(self) -> int:
        """Games played on each deal: every arrangement, or the two pure ones with ``roles``."""
        return 2 if self.roles else len(self.arrangements())

    def to_dict(self) -> dict[str, Any]:
        """JSON-able fields, to send to a worker or write into the results."""
        out = asdict(self)
        out["agents"] = list(self.agents)
        return out


@dataclass(frozen=True, slots=True)
class GameResult:
    """One deal under one arrangement: which agent sat where and how it ended."""

    deal: int
    arrangement: int
    seats: tuple[int, ...]
    returns: tuple[int, ...]
    roles: tuple[str, ...]
    won: tuple[bool, ...]
    places: tuple[int, ...]
    scores: tuple[float, ...]
    teams: tuple[int, ...]
    counted: bool
    #: The seat whose bot program forfeited the game (``None``: played out), and why.
    forfeit_seat: int | None = None
    forfeit_reason: str = ""
    forfeit_log: str = ""


class ExternalSeats:
    """The bot programs of one process, one per agent name and seat, kept across deals.

    Closed by `close_external`, and when the process exits (a worker of a pool
    included: `multiprocessing` runs its finalizers).
    """

    def __init__(self) -> None:
        self.agents: dict[tuple[str, int], ExternalAgent] = {}
        self._finalizer = multiprocessing.util.Finalize(self, self.close, exitpriority=10)

    def agent(self, name: str, game: Any, seat: int, seed: int, limits: BotLimits) -> Any:
        """The running (or to be started) program of agent ``name`` in ``seat``."""
        key = (name, seat)
        agent = self.agents.get(key)
        if agent is None or agent.limits != limits or agent.game.options != game.options:
            if agent is not None:
                agent.close()
            agent = self.agents[key] = ExternalAgent(name, game, seed, limits)
        return agent

    def close(self) -> None:
        """Send every program ``match_end`` and stop it."""
        agents, self.agents = list(self.agents.values()), {}
        for agent in agents:
            agent.close()


_SEATS: ExternalSeats | None = None


def _external_seats() -> ExternalSeats:
    global _SEATS
    if _SEATS is None:
        _SEATS = ExternalSeats()
    return _SEATS


def close_external() -> None:
    """Stop the bot programs this process started for tournaments."""
    global _SEATS
    if _SEATS is not None:
        _SEATS.close()
        _SEATS = None


def play_deals(
    spec: dict[str, Any], deals: list[int], on_deal: Callable[[int], None] | None = None
) -> list[GameResult]:
    """Play ``deals`` (deal numbers) under every arrangement; the unit of work of a backend.

    ``on_deal(games)`` is called after each deal with the games it made, so
    that a progress bar in the same process moves from the first deal.
    """
    tour = Tournament(
        game=spec["game"],
        agents=tuple(spec["agents"]),
        deals=spec["deals"],
        seed=spec["seed"],
        preset=spec["preset"],
        options=dict(spec["options"]),
        auction=spec["auction"],
        roles=spec.get("roles", False),
        move_time=spec.get("move_time", 5.0),
        startup_time=spec.get("startup_time", 10.0),
        bot_logs=spec.get("bot_logs", "bot-logs"),
    )
    game = tour.make_game()
    rules = arena_game(tour.game)
    layouts = arrangements(len(tour.agents), game.num_players)
    limits = tour.limits()
    out = []
    for deal in deals:
        deal_seed = derive_seed(tour.seed, "deal", deal)
        setup = rules.setup(game, deal, tour.auction)
        for index, seats in enumerate(layouts):
            if tour.roles and not _pure_roles(seats, setup["landlord"]):
                continue
            agents = []
            for s, a in enumerate(seats):
                name = tour.agents[a]
                if is_external(name):
                    bot_seed = derive_seed(tour.seed, "program", s)
                    agents.append(_external_seats().agent(name, game, s, bot_seed, limits))
                else:
                    seed = derive_seed(tour.seed, "agent", deal, index, s)
                    agents.append(make_agent(name, game, seed))
            state = game.new_deal(seed=deal_seed, **setup)
            try:
                play_deal(state, agents)
            except BotForfeit as forfeit:
                out.append(_forfeited(rules, state, deal, index, seats, forfeit))
                _tell_deal_end(agents, state, deal, forfeit)
                continue
            o = rules.outcome(state)
            out.append(
                GameResult(
                    deal,
                    index,
                    seats,
                    tuple(state.returns()),
                    o.roles,
                    o.won,
                    o.places,
                    o.scores,
                    o.teams,
                    o.counted,
                )
            )
            _tell_deal_end(agents, state, deal, None)
        if on_deal is not None:
            on_deal(len(layouts))
    if spec.get("close_bots"):
        close_external()
    return out


def _forfeited(
    rules: Any,
    state: Any,
    deal: int,
    index: int,
    seats: tuple[int, ...],
    forfeit: BotForfeit,
) -> GameResult:
    """The game a bot forfeited: its side loses at the worst score the deal allows."""
    seat = state.current_player if forfeit.seat is None else forfeit.seat
    o = rules.forfeit(state, seat)
    return GameResult(
        deal,
        index,
        seats,
        (0,) * state.num_players,
        o.roles,
        o.won,
        o.places,
        o.scores,
        o.teams,
        True,
        forfeit_seat=seat,
        forfeit_reason=forfeit.reason,
        forfeit_log=forfeit.log,
    )


def _tell_deal_end(agents: list[Any], state: Any, deal: int, forfeit: BotForfeit | None) -> None:
    """Send ``deal_end`` to the bot programs of a game (each once, in its seat)."""
    told: set[int] = set()
    for seat, agent in enumerate(agents):
        if not isinstance(agent, ExternalAgent) or id(agent) in told:
            continue
        told.add(id(agent))
        view = state.view(seat)
        if forfeit is None:
            agent.deal_end(view, deal, state.returns())
        else:
            info = {"seat": forfeit.seat, "reason": forfeit.reason}
            agent.deal_end(view, deal, None, info)


def _pure_roles(seats: tuple[int, ...], landlord: int) -> bool:
    """True if one agent holds every peasant seat and the other the landlord's."""
    peasants = {a for s, a in enumerate(seats) if s != landlord}
    return len(peasants) == 1 and seats[landlord] not in peasants
