"""Benchmark drivers for the peer Dou Di Zhu engines, OpenSpiel and RLCard.

Each peer is imported inside the functions that use it, so this module imports
without either of them installed; ``openspiel_available()`` and
``rlcard_available()`` say whether a peer can be driven.

Hands are given as lists of rank indices, one entry per card:
0 = ``3`` … 11 = ``A``, 12 = ``2``, 13 = black joker, 14 = red joker.

What each peer's numbers cover:

* OpenSpiel (``pyspiel``, game ``"dou_dizhu"``, C++ behind pybind11): a deal is
  52 chance nodes (the face-up card position, then 51 dealt cards; the last
  three cards are the kitty), an auction (bids of 1 to 3, the first bidder is
  the holder of the face-up card; a deal where all three players pass ends
  there with no play) and the play. Decisions count auction calls, plays and
  passes. Its move set has no four-with-two combinations (a four of a kind
  with two solo or two pair kickers), so a hand holding a four of a kind has
  fewer leads there than in RLCard.
* RLCard (pure Python): ``DoudizhuGame`` has no auction. Its dealer shuffles,
  deals 17 cards each and always makes seat 0 the landlord, who takes the three
  remaining cards and leads. Decisions count plays and passes only.
"""

from __future__ import annotations

import functools
import importlib
import random
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

RLCARD_AUCTION = "auction: none, seat 0 is always landlord (pure Python)"
OPENSPIEL_AUCTION = "auction: yes (C++)"

RANK_CHARS = "3456789TJQKA2BR"

# OpenSpiel dou_dizhu chance actions: 0..50 choose the position of the face-up
# card in the deal order; 51 + c deals card c, where card c < 52 has rank c % 13
# (suit c // 13, in the order C, D, H, S), card 52 is the black joker and card
# 53 the red ("colour") joker. Player action ids differ between OpenSpiel
# releases, so the auction's top bid is found by its name, "Bid 3".
_OS_NUM_CARDS = 54
_OS_KITTY = 3
_OS_DEAL_BASE = _OS_NUM_CARDS - _OS_KITTY
_OS_BLACK_JOKER = 52
_OS_TOP_BID = "Bid 3"


def _importable(module: str) -> bool:
    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True


def openspiel_available() -> bool:
    """Whether OpenSpiel's ``pyspiel`` imports."""
    return _importable("pyspiel")


def rlcard_available() -> bool:
    """Whether RLCard's Dou Di Zhu game imports."""
    return _importable("rlcard.games.doudizhu.game")


def openspiel_random_deals(n: int, seed: int) -> int:
    """Play ``n`` full random deals of OpenSpiel's ``dou_dizhu``.

    Every chance node is resolved by drawing one of ``state.chance_outcomes()``
    with ``random.Random(seed)``, every player node by a uniform choice among
    ``state.legal_actions()``: deal, auction and play until the state is
    terminal. The game gives all outcomes of a chance node the same
    probability, so the chance draw is a uniform pick by index. A deal in
    which all three players pass in the auction is terminal at once and
    counts as a deal. Returns the number of player decisions taken (auction
    calls, plays and passes).
    """
    import pyspiel

    return _openspiel_random_play(pyspiel.load_game("dou_dizhu"), n, seed)


def _openspiel_random_play(game: Any, n: int, seed: int) -> int:
    """Play ``n`` games of an OpenSpiel ``game`` at random; return the player decisions.

    Chance nodes draw uniformly among ``state.chance_outcomes()``, player nodes
    among ``state.legal_actions()`` (a forced move without a draw), both with
    ``random.Random(seed)``.
    """
    rng = random.Random(seed)
    decisions = 0
    for _ in range(n):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                actions = state.legal_actions()
                k = len(actions)
                state.apply_action(actions[rng.randrange(k)] if k > 1 else actions[0])
                decisions += 1
    return decisions


def rlcard_random_deals(n: int, seed: int) -> int:
    """Play ``n`` full random deals of RLCard's ``DoudizhuGame``, driven directly.

    The game object is used without ``rlcard.make``'s environment, so no
    feature encoding is counted. Its shuffle is seeded with ``seed``; every
    decision is a uniform choice, with ``random.Random(seed)``, among the
    legal actions the game reports in its state (``state["actions"]``, sorted
    so that a seed gives the same deals in every process), then
    ``game.step(action)`` until ``game.is_over()``.

    RLCard's Dou Di Zhu has no auction: the dealer always makes seat 0 the
    landlord, gives it the three kitty cards and it leads. Only plays and
    passes are decisions here; the deal costs one shuffle per game. Returns
    the number of decisions taken.
    """
    from rlcard.games.doudizhu.game import DoudizhuGame

    game = DoudizhuGame()
    game.np_random.seed(seed)
    rng = random.Random(seed)
    decisions = 0
    for _ in range(n):
        state, _ = game.init_game()
        while not game.is_over():
            actions = sorted(state["actions"])
            state, _ = game.step(actions[rng.randrange(len(actions))])
            decisions += 1
    return decisions


def _check_hand(ranks: Sequence[int]) -> None:
    if len(ranks) != 20:
        raise ValueError(f"a landlord hand has 20 cards, not {len(ranks)}")
    for rank, count in Counter(ranks).items():
        if not 0 <= rank <= 14:
            raise ValueError(f"rank {rank} is outside 0..14")
        if count > (1 if rank >= 13 else 4):
            raise ValueError(f"rank {rank} appears {count} times")


def _openspiel_cards(ranks: Sequence[int]) -> list[int]:
    """OpenSpiel card ids (0..53) for a hand of rank indices."""
    copies: Counter[int] = Counter()
    cards = []
    for rank in sorted(ranks):
        if rank >= 13:
            cards.append(_OS_BLACK_JOKER + rank - 13)
        else:
            cards.append(copies[rank] * 13 + rank)
            copies[rank] += 1
    return cards


def _openspiel_lead_state(game: Any, ranks: Sequence[int]) -> Any:
    """A ``dou_dizhu`` state where player 0 is landlord with ``ranks`` and leads.

    The face-up card is put at deal position 0, so player 0 bids first. The
    deal hands card ``k`` of the deal order to player ``k % 3``: player 0 gets
    17 of the hand's cards, the other 34 cards go to players 1 and 2, and the
    hand's last three cards stay undealt as the kitty. Player 0 then bids 3,
    which ends the auction and gives it the kitty.
    """
    _check_hand(ranks)
    landlord = _openspiel_cards(ranks)
    taken = set(landlord)
    others = iter([card for card in range(_OS_NUM_CARDS) if card not in taken])
    own = iter(landlord[: _OS_DEAL_BASE // 3])
    state = game.new_initial_state()
    state.apply_action(0)
    for k in range(_OS_DEAL_BASE):
        card = next(own) if k % 3 == 0 else next(others)
        state.apply_action(_OS_DEAL_BASE + card)
    top_bid = [a for a in state.legal_actions() if state.action_to_string(a) == _OS_TOP_BID]
    if len(top_bid) != 1:
        raise RuntimeError("OpenSpiel's auction offers no single top bid to player 0")
    state.apply_action(top_bid[0])
    if state.is_chance_node() or state.current_player() != 0:
        raise RuntimeError("OpenSpiel did not reach a landlord lead for player 0")
    return state


def openspiel_lead_movegen(hands: list[list[int]], repeats: int) -> float:
    """Median seconds of one OpenSpiel ``state.legal_actions()`` for a 20-card lead.

    For each hand, the chance outcomes are chosen to deal that hand to player
    0 (17 cards plus the 3-card kitty) and player 0 bids 3, so it is the
    landlord to lead a new trick with all 20 cards. ``state.legal_actions()``
    is then timed ``repeats`` times; the time includes the pybind11 call and
    the conversion of the action list to Python integers.
    """
    import pyspiel

    game = pyspiel.load_game("dou_dizhu")
    times = []
    for ranks in hands:
        legal_actions = _openspiel_lead_state(game, ranks).legal_actions
        for _ in range(repeats):
            t0 = time.perf_counter()
            legal_actions()
            times.append(time.perf_counter() - t0)
    return statistics.median(times)


def rlcard_hand_string(ranks: Sequence[int]) -> str:
    """RLCard's string for a hand: one rank character per card, in rank order."""
    return "".join(RANK_CHARS[rank] for rank in sorted(ranks))


def rlcard_lead_movegen(hands: list[list[int]], repeats: int) -> float:
    """Median seconds of one RLCard lead generation for a 20-card hand.

    RLCard finds a leader's moves with
    ``DoudizhuJudger.playable_cards_from_hand(hand)``, which builds the set of
    every combination the hand can lead; this call is timed ``repeats`` times
    per hand. Inside a game the judger runs it once per player when the deal
    starts, then only removes the combinations that later plays make
    impossible, so a lead during play reads that cached set: the time here is
    the full generation a 20-card opening lead needs.
    """
    from rlcard.games.doudizhu.judger import DoudizhuJudger

    generate = DoudizhuJudger.playable_cards_from_hand
    times = []
    for ranks in hands:
        _check_hand(ranks)
        text = rlcard_hand_string(ranks)
        for _ in range(repeats):
            t0 = time.perf_counter()
            generate(text)
            times.append(time.perf_counter() - t0)
    return statistics.median(times)


# -- Dominoes peers ------------------------------------------------------------------
#
# * the ``dominoes`` package (pure Python): four players in partnerships, no
#   boneyard, the block game. ``Game.new(starting_domino=Domino(6, 6))`` deals
#   with the global ``random`` generator and plays 6-6 itself; a player who
#   cannot play is passed over inside ``make_move``, so its decisions are plays
#   only.
# * OpenSpiel's ``python_block_dominoes`` (pure Python behind the pyspiel API):
#   two players, seven tiles each, the block game; the deal is 14 chance nodes.


def dominoes_pkg_available() -> bool:
    """Whether the ``dominoes`` package imports."""
    return _importable("dominoes")


def openspiel_block_dominoes_available() -> bool:
    """Whether OpenSpiel's ``python_block_dominoes`` game loads."""
    try:
        import pyspiel
        from open_spiel.python.games import block_dominoes  # noqa: F401

        pyspiel.load_game("python_block_dominoes")
    except (ImportError, RuntimeError):
        return False
    return True


def dominoes_pkg_random_hands(n: int, seed: int) -> int:
    """Play ``n`` random hands of the ``dominoes`` package's 4-player block game.

    The global generator is seeded with ``seed`` for the deals; each decision
    is a uniform choice with ``random.Random(seed)`` among ``game.valid_moves``
    (a forced move is taken without a draw), then ``game.make_move`` until
    ``game.result`` is set. Returns the decisions taken.
    """
    import dominoes

    random.seed(seed)
    rng = random.Random(seed)
    six_six = dominoes.Domino(6, 6)
    decisions = 0
    for _ in range(n):
        game = dominoes.Game.new(starting_domino=six_six)
        while game.result is None:
            moves = game.valid_moves
            k = len(moves)
            game.make_move(*(moves[rng.randrange(k)] if k > 1 else moves[0]))
            decisions += 1
    return decisions


def openspiel_block_dominoes_random_hands(n: int, seed: int) -> int:
    """Play ``n`` random hands of OpenSpiel's ``python_block_dominoes`` (two players).

    Chance nodes (the deal) draw uniformly among ``state.chance_outcomes()``,
    player nodes among ``state.legal_actions()`` (a forced move without a
    draw), both with ``random.Random(seed)``. Returns the player decisions.
    """
    import pyspiel
    from open_spiel.python.games import block_dominoes  # noqa: F401  (registers the game)

    return _openspiel_random_play(pyspiel.load_game("python_block_dominoes"), n, seed)


def rlcard_env_steps(deals: int, seed: int) -> int:
    """Play ``deals`` episodes of RLCard's ``doudizhu`` environment with ``env.run``.

    Every seat is RLCard's ``RandomAgent``; ``env.run(is_training=False)``
    plays one deal, building the acting player's observation (its feature
    planes and legal actions) at every step, as a training loop gets them.
    The environment is made once per process (``rlcard.make`` is not timed)
    and reseeded with ``seed``. Returns the number of decisions (agent calls).
    """
    env, calls = _rlcard_env()
    env.seed(seed)
    before = calls[0]
    for _ in range(deals):
        env.run(is_training=False)
    return calls[0] - before


@functools.cache
def _rlcard_env() -> tuple[Any, list[int]]:
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("doudizhu", config={"seed": 0})
    calls = [0]

    class CountingRandomAgent(RandomAgent):  # type: ignore[misc]
        def eval_step(self, state: Any) -> Any:
            calls[0] += 1
            return super().eval_step(state)

    env.set_agents([CountingRandomAgent(num_actions=env.num_actions) for _ in range(3)])
    return env, calls
