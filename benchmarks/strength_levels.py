"""Is a challenger stronger than a field agent? A sequential test on duplicate deals.

Every deal is played twice: once with the challenger in the measured seats and
once with a baseline there (the field agent, unless ``--baseline`` names another:
two versions of a bot among the same field), so both games see the very same
hands and the *paired score* ``d`` of the deal, challenger minus baseline,
is the challenger's doing alone. Positive ``d`` always means the challenger
did better:

- **doudizhu** (pure roles, as DouZero's evaluation): challenger landlord vs
  field peasants against field landlord vs field peasants, and/or challenger
  peasants vs a field landlord against field peasants (``--role``); ``d`` is
  the difference of the wins (1 or 0), the mean of both roles' with ``both``.
- **president**: one challenger among field bots (its seat rotates) against
  a field bot in that seat; ``d`` is the baseline's finishing place minus
  the challenger's (a lower place is better, so a positive ``d`` is a gain).
- **dominoes**: the challenger's side (partners seats 0 and 2, or seat 0 in
  the two-player game) against the field, and the seats swapped; ``d`` is the
  mean over both seatings of the side's score (win 1, tie 1/2, loss 0) minus
  the field's on the same seats.
- **tiengow**: one challenger among field bots (its seat rotates, the banker
  is the deal's, TG-03) against a field bot in that seat; ``d`` is the
  challenger's hand won (1 for the last trick, TG-27, else 0) minus the
  baseline's. Each line also keeps both seats' chips for the hand (TG-30…34),
  and the summary prints the mean chips per hand with their intervals.

The hypotheses are stated before the first deal and printed first:
H0 "mean d <= delta0" (default 0: no better) against H1 "mean d >= delta1"
(default 0.10), with error rates alpha = beta = 0.05. After every deal a
generalized SPRT (`shedkit.arena.sprt`, as fishtest's) updates its
log-likelihood ratio; the run stops as soon as H0 or H1 is accepted, or at
``--max-deals`` (inconclusive), and prints the decision, n, the mean of ``d``
with its 95 % interval and the LLR. No decision is taken before
``--min-deals``.

Search levels play a fixed **playout budget without a clock**, so a result
does not depend on the machine's load and every deal replays exactly:
``hard`` plays its level's budget for the game, ``hard@320`` 320 playouts per
move. ``--clock`` restores the levels' wall-clock caps (results then depend on
the machine). ``expert``'s root parallelism splits a fixed budget over its
processes with fixed seeds, so it is deterministic too. Deal ``i`` uses the
seed ``seed * 100000 + i`` and the agent in seat ``s`` the seed
``deal_seed * 16 + s``; deals are tested in order, so the decision is the
same for any ``--workers`` (deals played ahead of the stop are dropped).

With ``--results FILE`` (by convention under ``benchmarks/results/strength/``)
the run is written as JSON lines: first the run (the exact command, game,
options, seeds, agents and budgets, hypotheses, package version and build),
then one line per deal (index, seed, each side's results, ``d``), last the
decision. A later run with the same settings and file carries a stopped run
on, or a finished inconclusive one with a higher ``--max-deals``.
``--only-deals 17,42`` replays those deals and prints their lines, the same
as the file's (the settings come from the file's first line when
``--results`` names one, else from the command). ``strength_report.py``
builds ``docs/benchmarks/strength.md`` from the files.

Run: ``python benchmarks/strength_levels.py doudizhu --challenger hard
--field greedy --role landlord --delta1 0.1 --max-deals 400 --seed 23
--results benchmarks/results/strength/doudizhu-hard-greedy-landlord.jsonl``.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import shlex
import statistics
import sys
import time
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any

from rich.progress import Progress

import shedkit
from shedkit.agents import make_agent
from shedkit.agents.base import AGENTS_WITH_ARGUMENT
from shedkit.agents.search import LEVELS
from shedkit.agents.search.levels import PLAIN_SETTINGS, make_level, own_settings
from shedkit.arena.sprt import SPRT, Hypotheses
from shedkit.arena.stats import wilson
from shedkit.core.compiled import describe as describe_build

Z95 = 1.959963984540054
#: Deal ``i`` of a run with seed ``s`` uses the seed ``s * DEAL_STRIDE + i``.
DEAL_STRIDE = 100_000
ROLES = ("landlord", "peasants", "both")
# The settings that decide every deal's result: a file is carried on only with equal ones.
RUN_KEYS = ("game", "preset", "options", "challenger", "field", "role", "seed", "clock")


def split_settings(text: str) -> tuple[str, dict[str, Any]]:
    """``hard@160:objective=adp,group_kickers=false`` as ``("hard@160", {...})``.

    The settings after ``:`` change a search level's knowledge of the game
    (`shedkit.agents.search.knowledge.knowledge_for`) or its root (``confidence``,
    ``exploration``): a variant to test against the level as it is (``epsilon=0.05``
    too). Values are read as numbers, ``true``/``false`` or text.
    """
    base, colon, rest = text.partition(":")
    settings: dict[str, Any] = {}
    if not colon or base in AGENTS_WITH_ARGUMENT:
        # ``douzero:DIR``: an agent's own argument, not search settings.
        return text, settings
    for item in rest.split(","):
        key, eq, value = item.partition("=")
        if not eq or not key or not value:
            raise ValueError(f"search settings are key=value pairs, not {item!r} in {text!r}")
        settings[key] = _setting(value)
    return base, settings


def _setting(value: str) -> Any:
    if value.lower() in ("true", "false"):
        return value.lower() == "true"
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


def _searches(name: str) -> bool:
    """Whether ``name`` is a search level (one with a playout budget)."""
    spec = LEVELS.get(name)
    return spec is not None and bool(spec.playouts)


def parse_agent(text: str) -> tuple[str, int | None]:
    """``hard@320`` as ``("hard", 320)``; a name without ``@`` has no budget of its own."""
    name, at, budget = split_settings(text)[0].partition("@")
    if not at:
        return name, None
    if not _searches(name):
        raise ValueError(f"{name!r} is not a search level: only those take a playout budget")
    if not budget.isdigit() or int(budget) < 1:
        raise ValueError(f"the playout budget in {text!r} must be a positive whole number")
    return name, int(budget)


def build_agent(
    text: str, game: Any, seed: int, clock: bool, own: dict[str, Any] | None = None
) -> Any:
    """The agent ``text`` names (a level, ``level@playouts[:settings]`` or any agent).

    ``own`` replaces a level's own settings (`shedkit.agents.search.levels.own_settings`).
    """
    name, budget = parse_agent(text)
    settings = split_settings(text)[1]
    spec = LEVELS.get(name)
    if spec is not None and spec.playouts:
        return make_level(
            name,
            game,
            seed,
            budget_only=not clock,
            playouts=budget,
            settings=settings,
            own=own,
        )
    if settings:
        raise ValueError(f"{name!r} is not a search level: only those take search settings")
    return make_agent(name, game, seed)


def describe_agent(text: str, game_name: str, clock: bool) -> dict[str, Any]:
    """What an agent plays with: a search level's playouts per move, clock and processes."""
    name, budget = parse_agent(text)
    spec = LEVELS.get(name)
    if spec is None or not spec.playouts:
        return {"agent": text}
    out = {
        "agent": text,
        "level": name,
        "playouts": budget if budget is not None else dict(spec.playouts).get(game_name),
        "seconds": spec.seconds if clock else None,
        "workers": spec.workers,
    }
    own = own_settings(name, game_name)
    if own:
        out["own"] = own
    settings = split_settings(text)[1]
    if settings:
        out["settings"] = settings
    return out


def groups(run: dict[str, Any]) -> list[str]:
    """The results of a deal that make up ``d`` (a role, a place, a seating)."""
    if run["game"] == "doudizhu":
        return ["landlord", "peasants"] if run["role"] == "both" else [run["role"]]
    if run["game"] == "tiengow":
        return ["hand"]
    return ["place"] if run["game"] == "president" else ["side0", "side1"]


def score_range(run: dict[str, Any], players: int) -> tuple[float, float]:
    """The lowest and highest ``d`` a deal can give."""
    if run["game"] == "president":
        return (-(players - 1.0), players - 1.0)
    return (-1.0, 1.0)


def _play(state: Any, agents: list[Any], timed: set[int], times: list[float]) -> Any:
    while not state.is_over:
        seat = state.current_player
        view = state.view(seat)
        if seat in timed and len(view.legal_moves) > 1:
            t = time.perf_counter()
            move = agents[seat].act(view)
            times.append(time.perf_counter() - t)
        else:
            move = agents[seat].act(view)
        state.apply(move)
    for agent in agents:
        close = getattr(agent, "close", None)
        if close is not None:
            close()  # expert's worker processes
    return state


def _agents(run: dict[str, Any], game: Any, names: list[str], seed: int) -> list[Any]:
    clock = run["clock"]
    return [
        build_agent(name, game, seed * 16 + s, clock, _own(run, name))
        for s, name in enumerate(names)
    ]


def deal_for(game: Any, deal: int, group: str) -> tuple[Any, set[int]]:
    """Deal ``deal`` fresh and the seats measured in it for ``group`` (a role, a place, a side)."""
    n = game.num_players
    if game.name == "doudizhu":
        landlord = deal % n
        seats = {landlord} if group == "landlord" else set(range(n)) - {landlord}
        return game.new_deal(seed=deal, landlord=landlord, bid=1), seats
    if game.name in ("president", "tiengow"):
        return game.new_deal(seed=deal), {deal % n}
    return game.new_deal(seed=deal), {s for s in range(n) if game.side_of[s] == int(group[-1])}


def result_of(game: Any, end: Any, seats: set[int], group: str) -> float:
    """The measured seats' result in the finished deal ``end``: a win, a place, a side's score."""
    n = game.num_players
    if game.name == "doudizhu":
        return float((end.returns()[end.landlord] > 0) == (group == "landlord"))
    if game.name == "president":
        return float(end.finished.index(min(seats)) + 1)
    if game.name == "tiengow":
        return float(end.winner in seats)
    r = end.returns()
    me = min(seats)
    other = max(r[s] for s in range(n) if s not in seats)
    return 1.0 if r[me] > other else 0.5 if r[me] == other else 0.0


def play_deal(job: tuple[dict[str, Any], int]) -> tuple[dict[str, Any], list[float]]:
    """Play deal ``index`` of ``run`` both ways: its JSON line and the challenger's move times."""
    run, index = job
    name, challenger, field = run["game"], run["challenger"], run["field"]
    baseline = run.get("baseline", field)
    game = shedkit.make(name, preset=run["preset"], **run["options"])
    n = game.num_players
    deal = run["seed"] * DEAL_STRIDE + index
    times: list[float] = []
    line: dict[str, Any] = {"type": "deal", "deal": index, "seed": deal}
    for group in groups(run):
        for who in ("challenger", "baseline"):
            pick = challenger if who == "challenger" else baseline
            state, seats = deal_for(game, deal, group)
            names = [pick if s in seats else field for s in range(n)]
            timed = seats if who == "challenger" else set()
            end = _play(state, _agents(run, game, names, deal), timed, times)
            line[f"{group}/{who}"] = result_of(game, end, seats, group)
            if name == "tiengow":
                # The game's own score, reported beside the test (not part of d).
                line[f"chips/{who}"] = float(sum(end.returns()[s] for s in seats))
    sign = -1.0 if name == "president" else 1.0
    diffs = [sign * (line[f"{g}/challenger"] - line[f"{g}/baseline"]) for g in groups(run)]
    line["d"] = round(statistics.fmean(diffs), 6)
    return line, times


def _deals(
    run: dict[str, Any], max_deals: int, done: dict[int, dict[str, Any]], workers: int
) -> Iterator[tuple[dict[str, Any], list[float], bool]]:
    """Every deal's line in order (stored ones first-hand), with its times and whether new."""
    if workers == 1:
        for i in range(max_deals):
            if i in done:
                yield done[i], [], False
            else:
                yield (*play_deal((run, i)), True)
        return
    pool = ProcessPoolExecutor(workers)
    pending: deque[tuple[int, Future[tuple[dict[str, Any], list[float]]]]] = deque()
    ahead = 0
    try:
        for i in range(max_deals):
            # A short window ahead: a stop wastes at most a few deals.
            while ahead < max_deals and len(pending) < 2 * workers:
                if ahead not in done:
                    pending.append((ahead, pool.submit(play_deal, (run, ahead))))
                ahead += 1
            if i in done:
                yield done[i], [], False
            else:
                j, future = pending.popleft()
                assert j == i
                yield (*future.result(), True)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def read_results(path: Path) -> tuple[dict[str, Any] | None, dict[int, dict[str, Any]], list[str]]:
    """A results file's first line, its deals by index and its whole lines (cut lines dropped)."""
    header: dict[str, Any] | None = None
    deals: dict[int, dict[str, Any]] = {}
    lines: list[str] = []
    for text in path.read_text().splitlines():
        try:
            entry = json.loads(text)
        except json.JSONDecodeError:
            continue  # a line cut short when a run was stopped
        lines.append(text)
        if entry.get("type") == "run" and header is None:
            header = entry
        elif entry.get("type") == "deal":
            deals[int(entry["deal"])] = entry
    return header, deals, lines


def _same_run(old: dict[str, Any], new: dict[str, Any]) -> bool:
    keys = ("run", "agents", "hypotheses", "min_deals", "range")
    return all(old.get(k) == new.get(k) for k in keys)


def _arguments() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("game", nargs="?", choices=["doudizhu", "president", "dominoes", "tiengow"])
    p.add_argument("--preset", default="standard")
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--challenger", default="hard", help="an agent, a level or LEVEL@PLAYOUTS")
    p.add_argument("--field", default="greedy", help="the other seats (and the baseline)")
    p.add_argument(
        "--baseline",
        default=None,
        help="the agent the challenger is compared with in its seats (default: the field)",
    )
    p.add_argument("--role", choices=ROLES, default="both", help="Dou Di Zhu's measured role")
    p.add_argument("--delta0", type=float, default=0.0, help="H0: mean d <= delta0")
    p.add_argument("--delta1", type=float, default=0.1, help="H1: mean d >= delta1")
    p.add_argument("--alpha", type=float, default=0.05, help="the chance to accept H1 under H0")
    p.add_argument("--beta", type=float, default=0.05, help="the chance to accept H0 under H1")
    p.add_argument("--max-deals", type=int, default=2000, help="the cap: inconclusive there")
    p.add_argument("--min-deals", type=int, default=16, help="no decision before this many")
    p.add_argument("--seed", type=int, default=1, help="deal i uses seed*100000+i")
    p.add_argument("--clock", action="store_true", help="keep the levels' wall-clock caps")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--results", type=Path, default=None, help="the run's JSON lines file")
    p.add_argument("--note", default="", help="a sentence kept in the file's first line")
    p.add_argument(
        "--only-deals", default=None, help="replay these deal indices (17,42); print their lines"
    )
    return p


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments and run the test (or replay ``--only-deals``)."""
    args_list = sys.argv[1:] if argv is None else list(argv)
    p = _arguments()
    args = p.parse_args(args_list)
    if args.only_deals is not None:
        return _replay(p, args)
    if args.game is None:
        p.error("the game is required (doudizhu, president, dominoes or tiengow)")
    if args.max_deals < 1 or args.workers < 1 or args.min_deals < 1:
        p.error("--max-deals, --min-deals and --workers must be at least 1")
    run = _run_settings(p, args)
    game = shedkit.make(run["game"], preset=run["preset"], **run["options"])
    try:
        hyp = Hypotheses(args.delta0, args.delta1, args.alpha, args.beta)
        low, high = score_range(run, game.num_players)
        SPRT(hyp, low=low, high=high)
    except ValueError as e:
        p.error(str(e))
    command = shlex.join(["python", "benchmarks/strength_levels.py", *args_list])
    header = {
        "type": "run",
        "command": command,
        "run": run,
        "deal_seeds": (
            f"deal i: seed {run['seed']} * {DEAL_STRIDE} + i; "
            "the agent in seat s: deal_seed * 16 + s"
        ),
        "agents": {
            "challenger": describe_agent(run["challenger"], run["game"], run["clock"]),
            "field": describe_agent(run["field"], run["game"], run["clock"]),
            **(
                {"baseline": describe_agent(run["baseline"], run["game"], run["clock"])}
                if "baseline" in run
                else {}
            ),
        },
        "score": _score_text(run),
        "hypotheses": hyp.as_dict(),
        "min_deals": args.min_deals,
        "range": [low, high],
        "version": shedkit.__version__,
        "build": describe_build(),
        "python": platform.python_version(),
        "note": args.note,
    }
    _print_hypotheses(header, args.max_deals)
    done: dict[int, dict[str, Any]] = {}
    last_decision = None
    if args.results is not None and args.results.exists():
        old, done, lines = read_results(args.results)
        if old is None or not _same_run(old, header):
            p.error(f"{args.results} holds another run; name a new file")
        decisions = [ln for ln in lines if json.loads(ln).get("type") == "decision"]
        last_decision = decisions[-1] if decisions else None
        # Rewrite without a line cut short, so that new lines start on a line of their own.
        args.results.write_text("".join(ln + "\n" for ln in lines))
        print(f"carrying on {args.results}: {len(done)} deals stored")
    elif args.results is not None:
        args.results.parent.mkdir(parents=True, exist_ok=True)
        args.results.write_text(json.dumps(header) + "\n")
    test = SPRT(hyp, low=low, high=high, min_n=args.min_deals)
    lines_seen: list[dict[str, Any]] = []
    times: list[float] = []
    start = time.perf_counter()
    with Progress(transient=True) as progress:
        task = progress.add_task(f"{run['game']}: deals", total=args.max_deals)
        for line, t, new in _deals(run, args.max_deals, done, args.workers):
            if new and args.results is not None:
                with open(args.results, "a") as f:
                    f.write(json.dumps(line) + "\n")
            lines_seen.append(line)
            times.extend(t)
            decided = test.add(line["d"])
            progress.update(task, advance=1, description=f"n={test.n} LLR={test.llr():+.2f}")
            if decided is not None:
                break
    summary = {"type": "decision", **test.summary(), "max_deals": args.max_deals}
    summary["command"] = command
    text = json.dumps(summary)
    if args.results is not None and text != last_decision:
        with open(args.results, "a") as f:
            f.write(text + "\n")
    _print_summary(run, summary, lines_seen, times, time.perf_counter() - start)
    return 0


def _run_settings(p: argparse.ArgumentParser, args: argparse.Namespace) -> dict[str, Any]:
    options = {} if args.players is None else {"players": args.players}
    if args.game != "doudizhu" and args.role != "both":
        p.error("--role is for Dou Di Zhu only")
    try:
        for text in (args.challenger, args.field, args.baseline or args.field):
            parse_agent(text)
            build_agent(text, shedkit.make(args.game, preset=args.preset, **options), 0, False)
    except ValueError as e:
        p.error(str(e))
    run = {
        "game": args.game,
        "preset": args.preset,
        "options": options,
        "challenger": args.challenger,
        "field": args.field,
        "role": args.role,
        "seed": args.seed,
        "clock": args.clock,
    }
    assert tuple(run) == RUN_KEYS
    # Only when it differs from the field, so that files written before it stay valid.
    if args.baseline is not None and args.baseline != args.field:
        run["baseline"] = args.baseline
    # The levels' own settings, so that a replay plays them even after a level changes;
    # only where a level has some, so that files written before them stay valid.
    own = {}
    for text in (args.challenger, args.field, args.baseline or args.field):
        name = parse_agent(text)[0]
        settings = own_settings(name, args.game) if _searches(name) else {}
        if settings:
            own[name] = settings
    if own:
        run["own"] = own
    return run


def _own(run: dict[str, Any], text: str) -> dict[str, Any] | None:
    """The own settings the level in ``text`` played ``run`` with (None: not a level).

    A file written before the levels had settings of their own (no ``own``) played
    each with the plain defaults of the settings it has now (`PLAIN_SETTINGS`).
    """
    name = parse_agent(text)[0]
    if not _searches(name):
        return None
    recorded = run.get("own")
    if recorded is not None:
        return dict(recorded.get(name, {}))
    plain = PLAIN_SETTINGS[run["game"]]
    return {k: plain[k] for k in own_settings(name, run["game"])}


def _replay(p: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Print the lines of the ``--only-deals`` deals, from the file's settings or the command's."""
    try:
        wanted = [int(x) for x in args.only_deals.split(",") if x.strip()]
    except ValueError:
        p.error(f"--only-deals takes deal indices such as 17,42, not {args.only_deals!r}")
    if args.results is not None and args.results.exists():
        header, _, _ = read_results(args.results)
        if header is None:
            p.error(f"{args.results} has no first line with the run's settings")
        run = header["run"]
    elif args.game is None:
        p.error("name the game, or a results file with --results")
    else:
        run = _run_settings(p, args)
    for i in wanted:
        line, _ = play_deal((run, i))
        print(json.dumps(line))
    return 0


def result_interval(xs: list[float], group: str, players: int) -> tuple[float, float]:
    """The 95 % interval printed beside the mean of one side's results ``xs`` in ``group``.

    Wins and losses only (1 or 0): the Wilson score interval, as the arena prints, which
    stays inside [0, 1] however few the deals. Otherwise (a mean place, or Dominoes' half
    point for a tie) the normal interval, cut to the range of a result.
    """
    if all(x in (0.0, 1.0) for x in xs):
        return wilson(round(sum(xs)), len(xs))
    m = statistics.fmean(xs)
    h = Z95 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else math.inf
    low, high = (1.0, float(players)) if group == "place" else (0.0, 1.0)
    return max(low, m - h), min(high, m + h)


def _score_text(run: dict[str, Any]) -> str:
    if run["game"] == "president":
        return "baseline's place minus the challenger's place (positive: challenger better)"
    what = {
        "doudizhu": "win (1 or 0)",
        "dominoes": "score (win 1, tie 1/2, loss 0)",
        "tiengow": "hand won (1 or 0)",
    }
    mean = " averaged over " + " and ".join(groups(run)) if len(groups(run)) > 1 else ""
    return f"challenger's {what[run['game']]} minus the baseline's on the same deal{mean}"


def chips_interval(xs: list[float]) -> tuple[float, float, float]:
    """The mean of ``xs`` (chips per hand) and its 95 % normal interval."""
    m = statistics.fmean(xs)
    h = Z95 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else math.inf
    return m, m - h, m + h


def _print_chips(lines: list[dict[str, Any]]) -> None:
    """Mean chips per hand of both sides and of their difference, with 95 % intervals."""
    sides = {who: [ln[f"chips/{who}"] for ln in lines] for who in ("challenger", "baseline")}
    sides["difference"] = [
        c - b for c, b in zip(sides["challenger"], sides["baseline"], strict=True)
    ]
    for who, xs in sides.items():
        m, low, high = chips_interval(xs)
        print(f"  {'chips/' + who:22} chips/hand {m:+.3f} [{low:+.3f}, {high:+.3f}]")


def _print_hypotheses(header: dict[str, Any], max_deals: int) -> None:
    run, h, agents = header["run"], header["hypotheses"], header["agents"]

    def agent(a: dict[str, Any]) -> str:
        if "playouts" not in a:
            return str(a["agent"])
        clock = f"{a['seconds']} s cap" if a["seconds"] is not None else "no clock"
        return f"{a['agent']} ({a['playouts']} playouts/move, {clock}, {a['workers']} proc)"

    role = f", role {run['role']}" if run["game"] == "doudizhu" else ""
    print(
        f"{run['game']} preset={run['preset']} {run['options']}: challenger "
        f"{agent(agents['challenger'])} vs baseline "
        f"{agent(agents.get('baseline', agents['field']))}{role}"
        + (f", among {agent(agents['field'])}" if "baseline" in agents else "")
    )
    print(f"  d = {header['score']}")
    print(
        f"  H0: {h['H0']}   H1: {h['H1']}   alpha={h['alpha']} beta={h['beta']}   "
        f"LLR bounds [{h['bounds'][0]:.3f}, {h['bounds'][1]:.3f}]"
    )
    print(
        f"  deals: {header['deal_seeds']}; at most {max_deals}, "
        f"no decision before {header['min_deals']}"
    )
    sys.stdout.flush()


def _print_summary(
    run: dict[str, Any],
    summary: dict[str, Any],
    lines: list[dict[str, Any]],
    times: list[float],
    wall: float,
) -> None:
    decision = summary["decision"]
    said = {
        "H1": "H1 accepted: the challenger is better",
        "H0": "H0 accepted: the challenger is not better",
        "inconclusive": f"inconclusive at the cap of {summary['max_deals']} deals",
    }[decision]
    ci = summary["ci"]
    interval = "" if ci is None else f" [{ci[0]:+.3f}, {ci[1]:+.3f}]"
    print(f"  decision: {said}")
    print(
        f"  n={summary['n']}  mean d={summary['mean']:+.3f}{interval} (95 %, not corrected "
        f"for the stop)  LLR={summary['llr']:+.3f} bounds {summary['bounds']}"
    )
    players = shedkit.make(run["game"], preset=run["preset"], **run["options"]).num_players
    for g in groups(run):
        for who in ("challenger", "baseline"):
            xs = [ln[f"{g}/{who}"] for ln in lines]
            m, (low, high) = statistics.fmean(xs), result_interval(xs, g, players)
            what = "mean place" if g == "place" else "WP"
            print(f"  {g + '/' + who:22} {what} {m:.3f} [{low:.3f}, {high:.3f}]")
    if run["game"] == "tiengow":
        _print_chips(lines)
    if times:
        times.sort()
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
        print(
            f"  ms/move mean {1000 * statistics.fmean(times):.1f} p99 {1000 * p99:.1f} "
            f"({len(times)} moves)"
        )
    print(f"  wall {wall:.0f} s")


if __name__ == "__main__":
    sys.exit(main())
