"""The search engine, its per-game pieces and the levels registered as agents."""

from __future__ import annotations

import dataclasses
import itertools
import math
import pickle
import random
from typing import Any

import pytest

import shedkit
from shedkit.agents import AGENTS, make_agent
from shedkit.agents.search import LEVELS, EpsilonGreedy, SearchAgent, knowledge_for
from shedkit.agents.search.endgame import DouDizhuEndgame
from shedkit.agents.search.engine import run_paired, run_playouts
from shedkit.agents.search.knowledge import (
    DominoesKnowledge,
    DouDizhuKnowledge,
    GreedyRollouts,
    PresidentKnowledge,
    TienGowKnowledge,
)
from shedkit.agents.search.knowledge.sampler import _Likelihood, _metropolis, _pooled, _Weighted
from shedkit.core.bits import members

GAMES = ("doudizhu", "president", "dominoes", "tiengow")


def _knowing(kind: type[GreedyRollouts], game: Any, **changes: Any) -> Any:
    """``kind``'s knowledge of ``game`` with ``changes`` to its defaults."""
    return kind(game, dataclasses.replace(kind.defaults, **changes))


def _decision(game: Any, seed: int) -> Any:
    """A view with several legal moves, reached by greedy play from a seeded deal."""
    state = (
        game.new_deal(seed=seed, landlord=0)
        if game.name == "doudizhu"
        else game.new_deal(seed=seed)
    )
    greedy = make_agent("greedy", game)
    while True:
        view = state.view(state.current_player)
        if len(view.legal_moves) > 1:
            return view
        state.apply(greedy.act(view))


def _view_with(game: Any, seed: int, fewest: int, most: int) -> Any:
    """The first view with ``fewest`` to ``most`` legal moves in greedy play from a seeded deal."""
    greedy = make_agent("greedy", game)
    state = game.new_deal(seed=seed)
    while not state.is_over:
        view = state.view(state.current_player)
        if fewest <= len(view.legal_moves) <= most:
            return view
        state.apply(greedy.act(view))
    raise AssertionError(f"no view with {fewest} to {most} legal moves in deal {seed}")


def _forced(game: Any, seed: int) -> Any:
    """A view with a single legal move, reached by greedy play from seeded deals."""
    greedy = make_agent("greedy", game)
    for s in range(seed, seed + 50):
        state = (
            game.new_deal(seed=s, landlord=0) if game.name == "doudizhu" else game.new_deal(seed=s)
        )
        while not state.is_over:
            view = state.view(state.current_player)
            if len(view.legal_moves) == 1:
                return view
            state.apply(greedy.act(view))
    raise AssertionError("no forced move in 50 greedy deals")


@pytest.mark.parametrize("name", GAMES)
def test_levels_are_registered_for_every_game(name: str) -> None:
    """easy, medium, hard and expert build agents that play a legal move."""
    game = shedkit.make(name)
    view = _decision(game, 3)
    for level in LEVELS:
        assert name in AGENTS[level]
        agent = make_agent(level, game, seed=1)
        if isinstance(agent, SearchAgent):
            agent.playouts, agent.seconds, agent.workers = 8, None, 1
        assert agent.act(view) in view.legal_moves


@pytest.mark.parametrize("name", GAMES)
def test_search_is_reproducible_for_a_seed(name: str) -> None:
    """A playout budget and a seed give the same statistics and the same move."""
    game = shedkit.make(name)
    view = _decision(game, 5)
    knowledge = knowledge_for(game)
    first = run_playouts(knowledge, view, 24, seed=9)
    assert first == run_playouts(knowledge, view, 24, seed=9)
    assert sum(first[0]) == 24 and len(first) == 3
    moves = [SearchAgent(game, knowledge, seed=4, playouts=24).act(view) for _ in range(2)]
    assert moves[0] == moves[1]
    # A move says how many playouts it ran: the whole budget without a clock, none forced.
    agent = SearchAgent(game, knowledge, seed=4, playouts=24)
    agent.act(view)
    assert agent.last_playouts == 24
    agent.act(_forced(game, 5))
    assert agent.last_playouts == 0


@pytest.mark.parametrize("name", GAMES)
def test_a_knowledge_is_its_game_and_settings(name: str) -> None:
    """A knowledge is rebuilt from its game and settings alone (in a worker process): a
    variant is `dataclasses.replace` of the game's defaults, and the copy plays the same."""
    game = shedkit.make(name)
    knowledge = knowledge_for(game, 0.2, {"mcmc": 30, "chains": 2})
    kind = type(knowledge)
    assert knowledge.settings == dataclasses.replace(kind.defaults, epsilon=0.2, mcmc=30, chains=2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        knowledge.settings.mcmc = 0  # type: ignore[misc]
    copy = pickle.loads(pickle.dumps(knowledge))
    assert (type(copy), copy.game.options, copy.settings) == (
        kind,
        game.options,
        knowledge.settings,
    )
    view = _decision(game, 5)
    assert run_playouts(copy, view, 12, seed=1) == run_playouts(knowledge, view, 12, seed=1)


def test_search_over_processes_adds_the_workers_statistics() -> None:
    """Root parallelism: two processes share the budget and agree with a seeded rerun."""
    game = shedkit.make("dominoes")
    view = _decision(game, 2)
    agent = SearchAgent(game, knowledge_for(game), seed=3, playouts=16, workers=2)
    try:
        visits, _, _ = agent._search(view, 11, list(view.legal_moves))
        again, _, _ = agent._search(view, 11, list(view.legal_moves))
    finally:
        agent.close()
    assert sum(visits) == 16
    assert visits == again


def _ddz_states(count: int) -> list[Any]:
    """Every state of ``count`` seeded Dou Di Zhu deals played by greedy, in order."""
    game = shedkit.make("doudizhu")
    greedy = make_agent("greedy", game)
    states = []
    for seed in range(count):
        state = game.new_deal(seed=seed, landlord=seed % 3, bid=1)
        while not state.is_over:
            states.append(state.clone())
            state.apply(greedy.act(state.view(state.current_player)))
    return states


def _ddz_views(count: int) -> list[Any]:
    """The current player's view of every state of `_ddz_states`."""
    return [s.view(s.current_player) for s in _ddz_states(count)]


def test_ddz_root_moves_keep_one_kicker_choice_per_combination() -> None:
    """DDZ-16a: a trio, plane or quad with many kicker sets is searched once, with the
    kickers that leave the best plan; every move without kickers is searched."""
    game = shedkit.make("doudizhu")
    knowledge = DouDizhuKnowledge(game)
    shrunk = 0
    for view in _ddz_views(12):
        legal = list(view.legal_moves)
        roots = knowledge.root_moves(view)
        assert roots and all(m in legal for m in roots)
        assert [m for m in legal if not m.kickers] == [m for m in roots if not m.kickers]
        groups: dict[Any, list[Any]] = {}
        for m in legal:
            if m.kickers:
                groups.setdefault((m.kind, m.rank, m.base), []).append(m)
        kept = [m for m in roots if m.kickers]
        assert sorted(groups) == sorted((m.kind, m.rank, m.base) for m in kept)
        for m in kept:
            costs = [
                knowledge.planner.plan_after(view, o).cost for o in groups[(m.kind, m.rank, m.base)]
            ]
            assert knowledge.planner.plan_after(view, m).cost == min(costs)
        shrunk += len(roots) < len(legal)
    assert shrunk > 0  # the seeds reach kicker choices
    everything = _knowing(DouDizhuKnowledge, game, group_kickers=False)
    view = _ddz_views(1)[0]
    assert everything.root_moves(view) == list(view.legal_moves)


def test_ddz_objectives_score_wins_or_points() -> None:
    """The win-rate objective scores a deal ±1 for the seat's side; "adp" its points."""
    game = shedkit.make("doudizhu")
    wp, adp = DouDizhuKnowledge(game), _knowing(DouDizhuKnowledge, game, objective="adp")
    greedy = make_agent("greedy", game)
    for seed in range(6):
        state = game.new_deal(seed=seed, landlord=0, bid=3)
        while not state.is_over:
            state.apply(greedy.act(state.view(state.current_player)))
        for seat in range(3):
            points = state.returns()[seat]
            assert adp.reward(state, seat) == points
            assert wp.reward(state, seat) == (1.0 if points > 0 else -1.0)
    with pytest.raises(ValueError, match="objective"):
        _knowing(DouDizhuKnowledge, game, objective="points")
    # A bid sets the stake: it is searched on points even under the win objective.
    auction = game.new_deal(seed=1).view(0)
    assert auction.phase == "auction"
    assert wp.for_root(auction).settings == dataclasses.replace(wp.settings, objective="adp")
    assert adp.for_root(auction) is adp
    assert wp.for_root(_ddz_views(1)[-1]) is wp


def test_ddz_rollouts_never_bomb_at_random() -> None:
    """A random rollout move is never a bomb or the rocket while another move is legal."""
    game = shedkit.make("doudizhu")
    knowledge = _knowing(DouDizhuKnowledge, game, epsilon=1.0)
    rng = random.Random(5)
    checked = 0
    for state in _ddz_states(40):
        moves = state.legal_moves()
        if all(m.is_bomb for m in moves) or not any(m.is_bomb for m in moves):
            continue
        for _ in range(20):
            assert not knowledge.rollout_move(state, rng).is_bomb
        checked += 1
    assert checked > 0


def _placed_right(draw: _Weighted, state: Any, seat: int) -> tuple[float, float]:
    """The share of the hidden cards the drawn deals put in the right hand: their plain
    mean and their mean weighed as the draws are."""

    def right(deal: Any) -> float:
        return _right_share(deal, state, seat)

    weights = [b - a for a, b in zip([0.0, *draw.cumulative], draw.cumulative, strict=False)]
    uniform = sum(right(d) for d in draw.deals) / len(draw.deals)
    weighed = sum(w * right(d) for w, d in zip(weights, draw.deals, strict=True)) / draw.total
    return uniform, weighed


def test_ddz_10_inference_weighs_deals_by_how_likely_they_make_the_moves_seen() -> None:
    """Deals drawn with ``infer`` are consistent with the view (DDZ-10) and favour those
    where ε-greedy seats would have bid and played as they did: the true deal of greedy
    seats scores the highest likelihood there is, and the weighed deals place more of the
    hidden cards where they really are than uniform ones do."""
    game = shedkit.make("doudizhu")
    greedy = make_agent("greedy", game)
    knowledge = _knowing(DouDizhuKnowledge, game, infer=48, model_epsilon=0.25)
    uniform_right = weighed_right = 0.0
    for seed in (0, 3, 4, 5):
        state = _greedy_moves(game.new_deal(seed=seed), greedy, 18 + seed)
        seat = state.current_player
        view = state.view(seat)
        # The true deal, replayed: every move of another seat was greedy's.
        true, best = _Likelihood(greedy, seat, 0.25), 0.0
        replay = game.new_deal(seed=seed)
        for player, move, _ in view.history:
            legal = len(replay.legal_moves())
            if player != seat and legal > 1:
                best += math.log(0.75 + 0.25 / legal)
            true(replay, move)
            replay.apply(move)
        assert true.log == pytest.approx(best)
        draw = knowledge.determinizer(view, random.Random(seed))
        assert isinstance(draw, _Weighted) and len(draw.deals) == 48
        first = draw()
        assert first.view(seat).hand == view.hand and first.view(seat).history == view.history
        first.apply(first.legal_moves()[0])  # a fresh copy each draw: the pool is untouched
        assert all(d.view(seat).history == view.history for d in draw.deals)

        uniform, weighed = _placed_right(draw, state, seat)
        uniform_right += uniform
        weighed_right += weighed
    assert weighed_right > uniform_right
    # Off, or before any move: uniform deals.
    assert not isinstance(DouDizhuKnowledge(game).determinizer(view, random.Random()), _Weighted)
    with pytest.raises(ValueError, match="infer"):
        _knowing(DouDizhuKnowledge, game, infer=-1)
    with pytest.raises(ValueError, match="model_epsilon"):
        _knowing(DouDizhuKnowledge, game, model_epsilon=0.0)


@pytest.mark.parametrize("players", [4, 5])
def test_pre_08_inference_weighs_deals_by_how_likely_they_make_the_plays_seen(
    players: int,
) -> None:
    """PRE-08 lets a seat pass with cards that would beat the trick, so no play rules a
    hand out; ``infer`` weighs deals instead. Each drawn deal played again from the tax's
    end reaches the view's very state (the order in force flipped back by each quad,
    PRE-13, and the tax's gives kept, PRE-20); the true deal of greedy seats scores the
    highest likelihood there is; the weighed deals place more hidden cards where they
    really are than uniform ones do."""
    from shedkit.president.view import replay_play

    game = shedkit.make("president", players=players, tax=True)
    greedy = make_agent("greedy", game)
    knowledge = _knowing(PresidentKnowledge, game, infer=48, model_epsilon=0.25)
    uniform_right = weighed_right = 0.0
    checked = 0
    for seed in range(6):
        state = _after_tax(game, greedy, seed, 12 + 3 * seed)
        if state.is_over:
            continue
        seat = state.current_player
        view = state.view(seat)
        # The true deal, played again: every move of another seat was greedy's.
        true, best = _Likelihood(greedy, seat, 0.25), [0.0]

        def observe(
            before: Any, move: Any, true: Any = true, best: Any = best, me: int = seat
        ) -> None:
            legal = len(before.legal_moves())
            if before.current_player != me and legal > 1:
                best[0] += math.log(0.75 + 0.25 / legal)
            true(before, move)

        again = replay_play(game, state.clone(), observe)
        assert again is not None and again.hands == state.hands
        assert (again.current_player, again.revolution) == (state.current_player, state.revolution)
        assert again.finished == state.finished and again.last_play == state.last_play
        assert again.view(seat) == view
        assert true.log == pytest.approx(best[0]) and true.log < 0
        draw = knowledge.determinizer(view, random.Random(seed))
        assert isinstance(draw, _Weighted) and len(draw.deals) == 48
        deal = draw()
        assert deal.view(seat).hand == view.hand and deal.view(seat).history == view.history
        uniform, weighed = _placed_right(draw, state, seat)
        uniform_right += uniform
        weighed_right += weighed
        checked += 1
    assert checked >= 4
    assert weighed_right > uniform_right
    # Off, or before another seat has played: uniform deals.
    assert not isinstance(PresidentKnowledge(game).determinizer(view, random.Random()), _Weighted)
    opening = game.new_deal(seed=1)
    assert not isinstance(
        knowledge.determinizer(opening.view(opening.current_player), random.Random()), _Weighted
    )


def test_metropolis_chain_draws_deals_in_proportion_to_their_likelihood() -> None:
    """Swapping free cards between two seats and keeping a swap by the likelihood ratio
    visits each deal as often as its likelihood says; a card a seat cannot hold never
    reaches it."""
    weight = {0: 1.0, 1: 2.0, 2: 4.0, 3: 8.0}

    def build(hands: dict[int, list[int]]) -> tuple[Any, float]:
        held = tuple(sorted(hands[1]))
        return held, math.log(sum(weight[c] for c in held))

    rng = random.Random(5)
    draw = _metropolis({1: [0, 1], 2: [2, 3]}, None, build, 30_000, rng)
    assert draw is not None
    total = {}
    for deal, w in zip(draw.deals, draw.weights, strict=True):
        total[deal] = total.get(deal, 0.0) + w
    target = {
        pair: weight[pair[0]] + weight[pair[1]] for pair in itertools.combinations(range(4), 2)
    }
    norm = sum(target.values())
    for pair, likely in target.items():
        assert total.get(pair, 0.0) / draw.total == pytest.approx(likely / norm, abs=0.02)

    barred = _metropolis(
        {1: [0, 1], 2: [2, 3]}, lambda seat, card: seat != 1 or card != 3, build, 2_000, rng
    )
    assert barred is not None and all(3 not in deal for deal in barred.deals)
    # Fewer than two seats with free cards: nothing to swap, no chain.
    assert _metropolis({1: [0, 1], 2: []}, lambda s, c: True, build, 10, rng) is None


def test_pooled_chains_share_the_steps_and_one_chain_is_metropolis_itself() -> None:
    """Several chains, each from its own start, share the steps and are drawn from as
    one; a single chain is `_metropolis` itself, the same deals from the same seed."""
    starts: list[list[int]] = []

    def build(hands: dict[int, list[int]]) -> tuple[Any, float]:
        return tuple(sorted(hands[1])), 0.0

    def start() -> Any:
        first = random.Random(len(starts)).sample(range(6), 6)
        starts.append(first)
        return {1: first[:3], 2: first[3:]}, build

    pooled = _pooled(start, None, 40, 4, random.Random(9))
    assert pooled is not None and len(starts) == 4
    # Each chain keeps its steps after a third of burn-in: 4 chains of 10 steps, 7 kept.
    assert pooled.total == 4 * 7
    one = _pooled(lambda: ({1: [0, 1, 2], 2: [3, 4, 5]}, build), None, 30, 1, random.Random(3))
    alone = _metropolis({1: [0, 1, 2], 2: [3, 4, 5]}, None, build, 30, random.Random(3))
    assert one is not None and alone is not None
    assert (one.deals, one.weights) == (alone.deals, alone.weights)
    with pytest.raises(ValueError, match="chains"):
        _knowing(PresidentKnowledge, shedkit.make("president"), mcmc=20, chains=0)
    with pytest.raises(ValueError, match="chains"):
        _knowing(DouDizhuKnowledge, shedkit.make("doudizhu"), mcmc=20, chains=7)


@pytest.mark.parametrize("tax_style", ["drawn", "best"])
def test_pre_21_chain_keeps_the_known_cards_and_places_more_cards_right(tax_style: str) -> None:
    """With ``mcmc``, President's deals come from a Metropolis chain of swaps between the
    other seats: each deal agrees with the view, keeps the cards the tax showed where
    they are (PRE-20), leaves the loser that handed over its best cards only lower ones
    (PRE-21), and the deals place more hidden cards where they really are than uniform
    draws do."""
    from shedkit.president.combos import card_key
    from shedkit.president.view import known_cards

    game = shedkit.make("president", players=5, tax=True, tax_style=tax_style)
    greedy = make_agent("greedy", game)
    knowledge = _knowing(PresidentKnowledge, game, mcmc=150)
    uniform_right = chain_right = 0.0
    checked = 0
    for seed in range(12):
        state = _after_tax(game, greedy, seed, 10 + 2 * (seed % 6))
        if state.is_over:
            continue
        seat = state.current_player
        view = state.view(seat)
        known = known_cards(view)
        draw = knowledge.determinizer(view, random.Random(seed))
        assert isinstance(draw, _Weighted)
        bound = [loser for giver, loser, _ in view.exchanges if giver == seat]
        rev = view.revolution != (sum(m.kind == "quad" for _, m, _ in view.history) % 2 == 1)
        for deal in draw.deals:
            assert deal.view(seat).hand == view.hand and deal.view(seat).history == view.history
            assert [h.bit_count() for h in deal.hands] == list(view.cards_left)
            for s, cards in enumerate(known):
                assert all(deal.hands[s] >> c & 1 for c in cards)
            if tax_style == "best" and view.tax_drawn:
                bar = min(card_key(c, game.tables.position, rev) for c in view.tax_drawn)
                for loser in bound:
                    free = [c for c in range(len(game.deck)) if deal.hands[loser] >> c & 1]
                    free = [c for c in free if c not in known[loser]]
                    assert all(card_key(c, game.tables.position, rev) < bar for c in free)
        uniform = PresidentKnowledge(game).determinizer(view, random.Random(seed))
        for _ in range(40):
            uniform_right += _right_share(uniform(), state, seat)
            chain_right += _right_share(draw(), state, seat)
        checked += 1
    assert checked >= 8
    assert chain_right > uniform_right
    with pytest.raises(ValueError, match="mcmc"):
        _knowing(PresidentKnowledge, game, mcmc=-1)
    with pytest.raises(ValueError, match="one of them"):
        _knowing(PresidentKnowledge, game, mcmc=10, infer=10)


def test_ddz_10_chain_keeps_the_kitty_and_places_more_cards_right() -> None:
    """With ``mcmc``, Dou Di Zhu's deals in the play come from a Metropolis chain: each
    agrees with the view and keeps the landlord's shown kitty cards (DDZ-10), and they
    place more hidden cards where they really are than uniform draws do."""
    from shedkit.doudizhu.view import known_cards

    game = shedkit.make("doudizhu")
    greedy = make_agent("greedy", game)
    knowledge = _knowing(DouDizhuKnowledge, game, mcmc=30)
    uniform_right = chain_right = 0.0
    for seed in (0, 3, 4, 5):
        state = _greedy_moves(game.new_deal(seed=seed), greedy, 18 + seed)
        seat = state.current_player
        view = state.view(seat)
        known = known_cards(view)
        draw = knowledge.determinizer(view, random.Random(seed))
        assert isinstance(draw, _Weighted)
        for deal in draw.deals:
            assert deal.view(seat).hand == view.hand and deal.view(seat).history == view.history
            assert deal.view(seat).kitty == view.kitty
            for s, cards in enumerate(known):
                assert all(deal.hands[s] >> c & 1 for c in cards)
        uniform = DouDizhuKnowledge(game).determinizer(view, random.Random(seed))
        for _ in range(40):
            uniform_right += _right_share(uniform(), state, seat)
            chain_right += _right_share(draw(), state, seat)
    assert chain_right > uniform_right
    with pytest.raises(ValueError, match="mcmc"):
        _knowing(DouDizhuKnowledge, game, mcmc=-3)


def test_dom_07_chain_keeps_the_passes_and_places_more_tiles_right() -> None:
    """With ``mcmc``, Dominoes' deals come from a Metropolis chain of tile swaps between
    the other seats: each deal agrees with the view, never gives a seat a tile showing a
    number it passed on (DOM-07), and the deals place more hidden tiles where they
    really are than uniform draws do."""
    from shedkit.dominoes.view import missing_values

    game = shedkit.make("dominoes")
    greedy = make_agent("greedy", game)
    knowledge = _knowing(DominoesKnowledge, game, mcmc=60, chains=3)
    halves = game.tables.halves
    uniform_right = chain_right = 0.0
    passes = 0
    for seed in range(10):
        state = _greedy_moves(game.new_deal(seed=seed), greedy, 8 + seed % 8)
        seat = state.current_player
        view = state.view(seat)
        missing = missing_values(game, view)
        passes += sum(map(len, missing))
        draw = knowledge.determinizer(view, random.Random(seed))
        assert isinstance(draw, _Weighted)
        for deal in draw.deals:
            assert deal.view(seat).hand == view.hand and deal.view(seat).history == view.history
            assert [h.bit_count() for h in deal.hands] == list(view.tile_counts)
            for s in range(4):
                assert not any(set(halves[t]) & missing[s] for t in deal.hand(s))
        uniform = DominoesKnowledge(game).determinizer(view, random.Random(seed))
        for _ in range(40):
            uniform_right += _right_share(uniform(), state, seat)
            chain_right += _right_share(draw(), state, seat)
    assert passes > 0
    assert chain_right > uniform_right
    with pytest.raises(ValueError, match="mcmc"):
        _knowing(DominoesKnowledge, game, mcmc=-1)
    with pytest.raises(ValueError, match="model_epsilon"):
        _knowing(DominoesKnowledge, game, mcmc=10, model_epsilon=0.0)
    with pytest.raises(ValueError, match="chains"):
        _knowing(DominoesKnowledge, game, mcmc=10, chains=4)


def test_dom_07_replay_plays_the_hand_again_from_its_deal() -> None:
    """`replay_hand` replays a whole hand from the tiles each seat was dealt: the true hand
    of greedy seats comes back to the same state with the likelihood of greedy play at
    every choice; hands that could not have made the moves give None; draws (another
    seat's tiles never seen) cannot be replayed."""
    from shedkit.dominoes.view import missing_values, replay_hand

    game = shedkit.make("dominoes")
    greedy = make_agent("greedy", game)
    halves = game.tables.halves
    state = _greedy_moves(game.new_deal(seed=4), greedy, 14)
    seat = state.current_player
    likelihood = _Likelihood(greedy, seat, 0.25)
    best = 0.0

    def observe(before: Any, move: Any) -> None:
        nonlocal best
        legal = len(before.legal_moves())
        if before.current_player != seat and legal > 1:
            best += math.log(0.75 + 0.25 / legal)
        likelihood(before, move)

    again = replay_hand(game, state, observe)
    assert again is not None
    assert again.hands == state.hands and again.board == state.board
    assert likelihood.log == pytest.approx(best) and best < 0.0
    # A seat that passed on a number cannot have held a tile showing it (DOM-07).
    for seed in range(20):
        passed = _greedy_moves(game.new_deal(seed=seed), greedy, 16)
        if any(m.kind == "pass" for _, m, _, _ in passed.history):
            break
    who, lacked = next(
        (s, values)
        for s, values in enumerate(missing_values(game, passed.view(0)))
        if values and passed.hands[s]
    )
    tile = next(t for s in range(4) if s != who for t in passed.hand(s) if lacked & set(halves[t]))
    holder = next(s for s in range(4) if passed.hands[s] >> tile & 1)
    mine = members(passed.hands[who])[0]
    wrong = passed.clone()
    wrong.hands[who] ^= (1 << mine) | (1 << tile)
    wrong.hands[holder] ^= (1 << mine) | (1 << tile)
    assert replay_hand(game, passed.clone(), lambda before, move: None) is not None
    assert replay_hand(game, wrong, lambda before, move: None) is None
    two = shedkit.make("dominoes", players=2)
    drawn = _greedy_moves(two.new_deal(seed=1), make_agent("greedy", two), 1)
    while not any(m.kind == "draw" for _, m, _, _ in drawn.history):
        drawn.apply(make_agent("greedy", two).act(drawn.view(drawn.current_player)))
    with pytest.raises(ValueError, match="draws"):
        replay_hand(two, drawn, lambda before, move: None)


def _after_tax(game: Any, greedy: Any, seed: int, plays: int) -> Any:
    """The second deal of a greedy match after ``plays`` plays: the tax has moved cards."""
    first = game.new_deal(seed=seed)
    while not first.is_over:
        first.apply(greedy.act(first.view(first.current_player)))
    state = game.new_deal(seed=seed + 100, previous_order=first.finished)
    while not state.is_over and sum(m.kind != "give" for _, m, _ in state.history) < plays:
        state.apply(greedy.act(state.view(state.current_player)))
    return state


def _greedy_moves(state: Any, greedy: Any, moves: int) -> Any:
    """``state`` once greedy play has made ``moves`` moves in all."""
    while len(state.history) < moves:
        state.apply(greedy.act(state.view(state.current_player)))
    return state


def _right_share(deal: Any, state: Any, seat: int) -> float:
    """The share of the hidden cards ``deal`` puts in the hand that really holds them."""
    hidden = [s for s in range(len(state.hands)) if s != seat]
    return sum((deal.hands[s] & state.hands[s]).bit_count() for s in hidden) / sum(
        state.hands[s].bit_count() for s in hidden
    )


def test_paired_search_plays_every_move_on_the_same_deals() -> None:
    """Paired playouts: each root move on each shared deal, the same for a seed, and a
    move that ends the deal scores the same on every deal."""
    game = shedkit.make("doudizhu")
    knowledge = knowledge_for(game)
    view = next(v for v in _ddz_views(6) if v.phase == "play" and 3 <= len(v.legal_moves) <= 8)
    moves = list(view.legal_moves)
    values = run_paired(knowledge, view, 10 * len(moves), seed=3, moves=moves)
    assert [len(v) for v in values] == [10] * len(moves)
    assert values == run_paired(knowledge, view, 10 * len(moves), seed=3, moves=moves)
    assert all(x in (-1.0, 1.0) for v in values for x in v)
    # Two workers play their shares on deals of their own and pool them.
    agent = SearchAgent(game, knowledge, seed=2, playouts=8 * len(moves), workers=2)
    try:
        pooled = agent._search_paired(view, 5, moves, knowledge, 8 * len(moves))
    finally:
        agent.close()
    assert [len(v) for v in pooled] == [8] * len(moves)


def test_pre_paired_search_compares_the_moves_on_the_same_deals() -> None:
    """President with ``paired``: each root move on each shared deal (same dice), the
    same for a seed, scored by place; a move that differs on no deal ties exactly."""
    game = shedkit.make("president", players=5)
    knowledge = knowledge_for(game, settings={"paired": True})
    assert knowledge.paired and not knowledge_for(game).paired
    view = _view_with(game, seed=2, fewest=3, most=10)
    moves = list(view.legal_moves)
    values = run_paired(knowledge, view, 6 * len(moves), seed=4, moves=moves)
    assert [len(v) for v in values] == [6] * len(moves)
    assert values == run_paired(knowledge, view, 6 * len(moves), seed=4, moves=moves)
    # PRE-12: a deal scores n - 1 - place, from 4 (first) to 0 (last).
    assert {x for v in values for x in v} <= {0.0, 1.0, 2.0, 3.0, 4.0}
    # The same move twice sees the same deals and dice, so it scores the same everywhere.
    twice = run_paired(knowledge, view, 12, seed=4, moves=[moves[0], moves[0]])
    assert twice[0] == twice[1]
    picks = [SearchAgent(game, knowledge, seed=3, playouts=8 * len(moves)).act(view) for _ in "ab"]
    assert picks[0] == picks[1] and picks[0] in view.legal_moves


def test_paired_search_narrows_many_moves_first() -> None:
    """With more root moves than the budget gives enough shared deals, UCB1 keeps the
    best few and the greedy move; the choice is legal and repeats for a seed."""
    game = shedkit.make("doudizhu")
    view = max((v for v in _ddz_views(8) if v.phase == "play"), key=lambda v: len(v.legal_moves))
    assert len(view.legal_moves) > 10
    paired = knowledge_for(game, settings={"paired": True})
    picks = [SearchAgent(game, paired, seed=7, playouts=40).act(view) for _ in "ab"]
    assert picks[0] == picks[1] and picks[0] in view.legal_moves


def test_dom_07_exact_endgame_matches_exhaustive_play() -> None:
    """DOM-07: alpha-beta gives the minimax value of a small endgame with no boneyard."""
    game = shedkit.make("dominoes", preset="block")
    knowledge = _knowing(DominoesKnowledge, game, endgame_tiles=28)
    endgames = []
    for seed in range(20):
        rng = random.Random(seed)
        state = game.new_deal(seed=seed)
        while not state.is_over and sum(len(state.hand(s)) for s in range(4)) > 6:
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
        if not state.is_over:
            endgames.append(state)
    assert len(endgames) >= 5

    def minimax(s: Any) -> float:
        if s.is_over:
            return knowledge.reward(s, 0)
        values = []
        for m in s.legal_moves():
            child = s.clone()
            child.apply(m)
            values.append(minimax(child))
        mine = game.side_of[s.current_player] == game.side_of[0]
        return max(values) if mine else min(values)

    for state in endgames:
        assert knowledge.exact(state, 0) == minimax(state)


def test_dom_10_objectives_score_the_side_win_or_its_margin() -> None:
    """DOM-10: "wp" scores a side's win ±1 (0 for a tie), "adp" its points over the others'."""
    game = shedkit.make("dominoes")
    adp, wp = DominoesKnowledge(game), _knowing(DominoesKnowledge, game, objective="wp")
    greedy = make_agent("greedy", game)
    signs = set()
    for seed in range(8):
        state = game.new_deal(seed=seed)
        while not state.is_over:
            state.apply(greedy.act(state.view(state.current_player)))
        for seat in range(game.num_players):
            returns = state.returns()
            others = [returns[s] for s in range(4) if game.side_of[s] != game.side_of[seat]]
            margin = returns[seat] - max(others)
            assert adp.reward(state, seat) == margin
            assert wp.reward(state, seat) == (margin > 0) - (margin < 0)
            signs.add(wp.reward(state, seat))
    assert {-1.0, 1.0} <= signs
    # The win objective reaches the endgame solver too: its values are wins and losses.
    assert wp.exact(_dominoes_endgame(game), 0) in (-1.0, 0.0, 1.0)
    with pytest.raises(ValueError, match="objective"):
        _knowing(DominoesKnowledge, game, objective="points")
    assert pickle.loads(pickle.dumps(wp)).settings.objective == "wp"


def _dominoes_endgame(game: Any) -> Any:
    """A hand played by greedy until six tiles are left in the hands."""
    greedy = make_agent("greedy", game)
    for seed in range(20):
        state = game.new_deal(seed=seed)
        while not state.is_over and sum(len(state.hand(s)) for s in range(4)) > 6:
            state.apply(greedy.act(state.view(state.current_player)))
        if not state.is_over:
            return state
    raise AssertionError("greedy ends every one of 20 hands before six tiles are left")


def test_ddz_14_exact_endgame_matches_exhaustive_play() -> None:
    """DDZ-13/14: the endgame solver's win or loss is the minimax result of the deal played out.

    The landlord wins (DDZ-14) if one of its moves wins whatever the peasants answer; two
    passes give the lead back (DDZ-13). Checked against a plain minimax over `State.apply`
    on endgames of up to 9 cards, reached by greedy play with random moves mixed in, and
    with a fresh table and a shared one.
    """
    game = shedkit.make("doudizhu")
    greedy = make_agent("greedy", game)
    shared = DouDizhuEndgame(game.tables, game.num_players, max_nodes=10**6)
    knowledge = _knowing(DouDizhuKnowledge, game, endgame_cards=9)
    rng = random.Random(14)
    endgames = []
    for seed in range(120):
        state = game.new_deal(seed=seed)
        while not state.is_over:
            if state.phase == "play" and sum(len(state.hand(s)) for s in range(3)) <= 9:
                endgames.append(state)
                break
            moves = state.legal_moves()
            if rng.random() < 0.3:
                state.apply(moves[rng.randrange(len(moves))])
            else:
                state.apply(greedy.act(state.view(state.current_player)))
    assert len(endgames) >= 20

    def landlord_wins(s: Any) -> bool:
        if s.is_over:
            return bool(s.winner == s.landlord)
        mine = s.current_player == s.landlord
        for m in s.legal_moves():
            child = s.clone()
            child.apply(m)
            if landlord_wins(child) == mine:
                return mine
        return not mine

    outcomes = set()
    for state in endgames:
        expected = landlord_wins(state)
        outcomes.add(expected)
        args = (state.current_player, state.landlord, state.last_play, state.last_player)
        fresh = DouDizhuEndgame(game.tables, game.num_players)
        assert fresh.landlord_wins(state.rank_counts, *args, state.passes) == expected
        assert shared.landlord_wins(state.rank_counts, *args, state.passes) == expected
        for seat in range(3):
            value = 1.0 if expected == (seat == state.landlord) else -1.0
            assert knowledge.exact(state, seat) == value
    assert outcomes == {True, False}
    # A solve too large for its node budget gives up instead of guessing.
    tiny = DouDizhuEndgame(game.tables, game.num_players, max_nodes=1)
    big = max(endgames, key=lambda s: len(s.legal_moves()))
    args = (big.current_player, big.landlord, big.last_play, big.last_player, big.passes)
    assert tiny.landlord_wins(big.rank_counts, *args) is None
    # Off by default, and never under the points objective.
    assert DouDizhuKnowledge(game).exact(endgames[0], 0) is None
    assert (
        _knowing(DouDizhuKnowledge, game, objective="adp", endgame_cards=9).exact(endgames[0], 0)
        is None
    )


def test_bad_settings_get_clear_errors() -> None:
    """Budgets, ε and levels are checked when the agent is built."""
    game = shedkit.make("president")
    with pytest.raises(ValueError, match="playouts"):
        SearchAgent(game, knowledge_for(game), playouts=0)
    with pytest.raises(ValueError, match="workers"):
        SearchAgent(game, knowledge_for(game), workers=0)
    with pytest.raises(ValueError, match="epsilon"):
        EpsilonGreedy(make_agent("greedy", game), 1.5)
    ddz = shedkit.make("doudizhu")
    with pytest.raises(ValueError, match="endgame_cards"):
        knowledge_for(ddz, settings={"endgame_cards": -1})
    with pytest.raises(ValueError, match="max_nodes"):
        DouDizhuEndgame(ddz.tables, 3, max_nodes=0)
    with pytest.raises(ValueError, match="infer"):
        knowledge_for(game, settings={"infer": -2})
    with pytest.raises(ValueError, match="model_epsilon"):
        knowledge_for(game, settings={"model_epsilon": 0})
    with pytest.raises(ValueError, match="valid: infer, model_epsilon, paired, mcmc"):
        knowledge_for(game, settings={"endgame_cards": 4})
    with pytest.raises(ValueError, match="spectator"):
        SearchAgent(game, knowledge_for(game), playouts=4).act(_spectator(game))


def _spectator(game: Any) -> Any:
    state = game.new_deal(seed=1)
    view = state.view(state.current_player)
    import dataclasses

    return dataclasses.replace(view, seat=None)


# -- Tien Gow ------------------------------------------------------------------------------


def _tg_kinds(state: Any, seat: int) -> list[int]:
    """The kinds ``seat`` holds: the copies of a civil tile are one tile to play (TG-01)."""
    from shedkit.tiengow.combos import TILE_KIND

    return [TILE_KIND[t] for t in state.hand(seat)]


def _tg_right_share(deal: Any, state: Any, seat: int) -> float | None:
    """The share of the other seats' tiles ``deal`` puts in the hand that really holds them
    (by kind); None when they hold none."""
    from collections import Counter

    hit = total = 0
    for s in range(4):
        if s != seat:
            truth = Counter(_tg_kinds(state, s))
            hit += sum((Counter(_tg_kinds(deal, s)) & truth).values())
            total += sum(truth.values())
    return hit / total if total else None


def test_tg_30_objectives_score_chips_or_the_hand() -> None:
    """TG-30: "adp" (the default) scores the seat's chips; "wp" 1 for the hand won, -1 else."""
    game = shedkit.make("tiengow")
    adp, wp = TienGowKnowledge(game), _knowing(TienGowKnowledge, game, objective="wp")
    assert adp.settings.objective == "adp"
    greedy = make_agent("greedy", game)
    for seed in range(6):
        state = game.new_deal(seed=seed)
        while not state.is_over:
            state.apply(greedy.act(state.view(state.current_player)))
        for seat in range(4):
            assert adp.reward(state, seat) == state.returns()[seat]
            assert wp.reward(state, seat) == (1.0 if state.winner == seat else -1.0)


def test_tg_53_determinize_keeps_every_discard_legal() -> None:
    """TG-53: under must_follow_suit, every deal drawn for a seat replays the hand's moves,
    the other seats' face-down discards included, and shows that seat the very same view."""
    game = shedkit.make("tiengow", preset="dominorules")
    knowledge = TienGowKnowledge(game)
    rng = random.Random(5)
    discards = 0
    for seed in range(12):
        state = game.new_deal(seed=seed)
        while not state.is_over:
            for seat in range(4):
                view = state.view(seat)
                deal = game.determinize(view, rng)  # replays the history: raises if illegal
                assert deal.view(seat) == view
            moves = state.legal_moves()
            # Discard as often as the rules allow: the constraints of TG-53 come from those.
            hidden = [m for m in moves if m.is_discard]
            state.apply(rng.choice(hidden if hidden and rng.random() < 0.7 else moves))
        discards += sum(m.is_discard for _, m, _ in state.history)
    assert discards > 50
    # A likelihood draw keeps the view too.
    view = _view_with(game, 3, 2, 40)
    chain = _knowing(TienGowKnowledge, game, mcmc=30, chains=2).determinizer(view, rng)
    assert all(chain().view(view.seat) == view for _ in range(5))
    assert knowledge.determinizer(view, rng)().view(view.seat) == view


def _tg_discard_over_pair(game: Any, seed: int) -> tuple[Any, Any] | None:
    """A state where seat 1 has just discarded over seat 0's led civil pair, or None."""
    from shedkit.tiengow.combos import CIVIL_PAIR

    greedy = make_agent("greedy", game)
    state = game.new_deal(seed=seed, hands=["1-3 1-3 4-6 2-5 1-4 5-6 3-4 2-3", None, None, None])
    pair = next(m for m in state.legal_moves() if m.cls == CIVIL_PAIR)
    state.apply(pair)
    move = greedy.act(state.view(1))
    if not move.is_discard:
        return None
    state.apply(move)
    return state, pair


def _tg_held_a_beating_pair(deal: Any, rank: int) -> bool:
    """Whether seat 1 held, before its discard (history index 1), a civil pair above ``rank``."""
    from shedkit.tiengow.combos import CIVIL_KINDS, KIND_RANK

    kinds = _tg_kinds(deal, 1) + list(deal.history[1][1].kinds)
    return any(k < CIVIL_KINDS and KIND_RANK[k] > rank and kinds.count(k) >= 2 for k in set(kinds))


def test_tg_25_inference_holds_a_discard_over_a_beatable_lead_unlikely() -> None:
    """TG-21/25: a discard's tiles are hidden, but that a seat discarded is seen. Greedy
    beats any trick of two tiles when it can, so deals weighed by the moves seen (``infer``
    and ``mcmc``) give the discarding seat a civil pair above the led one less often than
    uniform deals do."""
    game = shedkit.make("tiengow", first_banker=0)
    found = [x for x in (_tg_discard_over_pair(game, seed) for seed in range(12)) if x]
    assert len(found) >= 3
    rates = {"uniform": 0.0, "infer": 0.0, "mcmc": 0.0}
    for state, pair in found:
        view = state.view(2)
        for name, settings in (("uniform", {}), ("infer", {"infer": 80}), ("mcmc", {"mcmc": 90})):
            knowledge = _knowing(TienGowKnowledge, game, **settings)
            draw = knowledge.determinizer(view, random.Random(3))
            rates[name] += sum(_tg_held_a_beating_pair(draw(), pair.rank) for _ in range(60)) / 60
    assert rates["infer"] < rates["uniform"] and rates["mcmc"] < rates["uniform"]


def test_tg_chain_keeps_the_view_and_places_more_tiles_right() -> None:
    """With ``mcmc``, Tien Gow's deals come from Metropolis chains of swaps between the
    other seats' hands and face-down discards: each deal agrees with the view, and they
    place more hidden tiles where they really are than uniform draws do."""
    game = shedkit.make("tiengow")
    knowledge = _knowing(TienGowKnowledge, game, mcmc=60, chains=3)
    uniform_right, chain_right = _tg_chain_against_uniform(game, knowledge, 10, 6)
    assert chain_right > uniform_right


def _tg_chain_against_uniform(
    game: Any, knowledge: TienGowKnowledge, deals: int, moves: int
) -> tuple[float, float]:
    """How many hidden tiles uniform deals and ``knowledge``'s chains place right, summed
    over 40 draws in each of ``deals`` positions (deal ``seed`` after ``moves + seed``
    greedy moves); every deal a chain draws shows the seat its very view."""
    greedy = make_agent("greedy", game)
    uniform_right = chain_right = 0.0
    for seed in range(deals):
        state = _greedy_moves(game.new_deal(seed=seed), greedy, moves + seed)
        seat = state.current_player
        view = state.view(seat)
        draw = knowledge.determinizer(view, random.Random(seed))
        assert isinstance(draw, _Weighted)
        for deal in draw.deals[:20]:
            assert deal.view(seat) == view
        uniform = TienGowKnowledge(game).determinizer(view, random.Random(seed))
        for _ in range(40):
            uniform_right += _tg_right_share(uniform(), state, seat) or 0.0
            chain_right += _tg_right_share(draw(), state, seat) or 0.0
    return uniform_right, chain_right


def _tg_greedy_would_discard(game: Any, deal: Any, index: int) -> bool:
    """Whether the discard at history ``index`` of ``deal`` is the move greedy makes there."""
    from shedkit.agents.search.knowledge.tiengow import replay_hand

    moves = [m for _, m, _ in deal.history[:index]]
    hands = [list(h) for h in deal.dealt]
    before = replay_hand(game, deal.view(0), hands, moves, lambda s, m: None, deal.seed)
    assert before is not None
    seat = deal.history[index][0]
    return bool(make_agent("greedy", game).act(before.view(seat)) == deal.history[index][1])


def test_tg_model_discards_lay_down_what_greedy_would() -> None:
    """TG-21/25: a face-down discard's tiles are hidden, and a chain that weighs it only as
    *a discard* leaves them at random; with ``model_discards`` the chains swap tiles between
    the other seats' pools and lay each hidden discard down as the modelled greedy seat
    would, so the discard over a led pair is greedy's own in almost every deal drawn."""
    game = shedkit.make("tiengow", first_banker=0)
    found = [x for x in (_tg_discard_over_pair(game, seed) for seed in range(12)) if x]
    assert len(found) >= 3
    share = {"mcmc": 0.0, "model": 0.0}
    for state, _ in found:
        view = state.view(2)
        for name, settings in (("mcmc", {}), ("model", {"model_discards": True})):
            knowledge = _knowing(TienGowKnowledge, game, mcmc=90, **settings)
            draw = knowledge.determinizer(view, random.Random(3))
            deals = [draw() for _ in range(20)]
            assert all(deal.view(2) == view for deal in deals)
            share[name] += sum(_tg_greedy_would_discard(game, d, 1) for d in deals) / 20
    assert share["model"] > 0.8 * len(found) > share["mcmc"]


def test_tg_model_discards_keep_the_view_and_place_more_tiles_right() -> None:
    """With ``model_discards`` every deal still shows the seat its very view (a discard
    never throws a tile its seat plays face up later, TG-53 holds), and the deals place more
    of the other hands' tiles where they really are than uniform draws do."""
    for preset in ("standard", "dominorules"):
        game = shedkit.make("tiengow", preset=preset)
        knowledge = _knowing(TienGowKnowledge, game, mcmc=60, chains=2, model_discards=True)
        uniform_right, chain_right = _tg_chain_against_uniform(game, knowledge, 8, 10)
        assert chain_right > uniform_right, preset


def test_tg_replay_refuses_hands_that_could_not_have_made_the_moves() -> None:
    """`replay_hand` plays a hand again from its deal, or says None when the rules refuse a
    move (TG-53: a tile of the other suit discarded by a seat that held the led suit)."""
    from shedkit.agents.search.knowledge.tiengow import replay_hand

    game = shedkit.make("tiengow", preset="dominorules", first_banker=0)
    hands = ["6-6 6-6 5-5", "3-6 4-5 2-6", "5-6 1-3 1-1", "1-6 3-3 4-4"]
    state = game.new_deal(seed=1, hands=hands)
    seen: list[str] = []
    state.apply(game.parse_move("5-5", state))
    state.apply(game.parse_move("discard 3-6", state))  # seat 1 holds no civil tile
    view = state.view(0)
    moves = [m for _, m, _ in state.history]
    again = replay_hand(
        game, view, [list(h) for h in state.dealt], moves, lambda s, m: seen.append(str(m))
    )
    assert again is not None and again.view(1) == state.view(1)
    assert seen == ["5-5", "discard 3-6"]
    # Had seat 1 held 1-1 (a civil tile), it could not have discarded 3-6.
    other = game.new_deal(seed=1, hands=[hands[0], "3-6 4-5 1-1", "5-6 1-3 2-6", hands[3]])
    dealt = [list(h) for h in other.dealt]
    assert replay_hand(game, view, dealt, moves, lambda s, m: None) is None
