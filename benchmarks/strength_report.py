"""Build the sequential tests' section of ``docs/benchmarks/strength.md`` from the results files.

Reads every ``*.jsonl`` file in ``benchmarks/results/strength/`` (written by
``strength_levels.py --results``), runs each file's test again over its deal
lines with the hypotheses of its first line, and writes one table row per
file and the commands that produced them between the page's markers. The
rest of the page is left as it is.

Run: ``python benchmarks/strength_report.py`` (rewrites the page) or
``python benchmarks/strength_report.py --check`` (exit status 1 when the
page is not up to date with the files).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

from shedkit.arena.sprt import SPRT, Hypotheses

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "strength"
PAGE = ROOT / "docs" / "benchmarks" / "strength.md"
BEGIN = "<!-- sequential tests: begin (written by benchmarks/strength_report.py) -->"
END = "<!-- sequential tests: end -->"


def read_run(path: Path) -> dict[str, Any]:
    """One results file: its first line, its deal lines in order and its last decision line."""
    header: dict[str, Any] | None = None
    deals: dict[int, dict[str, Any]] = {}
    decision: dict[str, Any] | None = None
    for text in path.read_text().splitlines():
        try:
            entry = json.loads(text)
        except json.JSONDecodeError:
            continue  # a line cut short when a run was stopped
        kind = entry.get("type")
        if kind == "run" and header is None:
            header = entry
        elif kind == "deal":
            deals[int(entry["deal"])] = entry
        elif kind == "decision":
            decision = entry
    if header is None:
        raise ValueError(f"{path.name} has no first line with the run's settings")
    return {"file": path.name, "header": header, "deals": deals, "decision": decision}


def retest(run: dict[str, Any]) -> SPRT:
    """The file's test run again over its deals in order (it stops where the run stopped)."""
    header = run["header"]
    h = header["hypotheses"]
    hyp = Hypotheses(h["delta0"], h["delta1"], h["alpha"], h["beta"])
    low, high = header["range"]
    test = SPRT(hyp, low=low, high=high, min_n=header["min_deals"])
    cap = run["decision"]["max_deals"] if run["decision"] else len(run["deals"])
    i = 0
    while i < cap and i in run["deals"] and test.decision() is None:
        test.add(run["deals"][i]["d"])
        i += 1
    return test


def _agent(a: dict[str, Any]) -> str:
    if "playouts" not in a:
        return f"`{a['agent']}`"
    clock = f"{a['seconds']} s cap" if a["seconds"] is not None else "no clock"
    procs = f", {a['workers']} processes" if a["workers"] > 1 else ""
    chosen = {**a.get("own", {}), **a.get("settings", {})}
    settings = "".join(f", {k}={v}" for k, v in chosen.items())
    return f"`{a['level']}` ({a['playouts']} playouts/move, {clock}{procs}{settings})"


def _rates(run: dict[str, Any], n: int) -> str:
    lines = [run["deals"][i] for i in range(n)]
    keys = [k for k in lines[0] if k.endswith("/challenger")] if lines else []
    parts = []
    for key in keys:
        group = key.split("/")[0]
        ch = statistics.fmean(ln[key] for ln in lines)
        base = statistics.fmean(ln[f"{group}/baseline"] for ln in lines)
        parts.append(f"{group} {ch:.3f} vs {base:.3f}")
    return "; ".join(parts)


def render(runs: list[dict[str, Any]]) -> str:
    """The Markdown between the markers: a table of the tests and the commands that ran them."""
    out = [
        "| measurement | H0 / H1 (α, β) | decision | n | mean d [95 % interval] "
        "| LLR [bounds] | challenger vs baseline |",
        "| --- | --- | --- | ---: | --- | --- | --- |",
    ]
    commands = []
    for run in runs:
        header = run["header"]
        settings, h = header["run"], header["hypotheses"]
        test = retest(run)
        s = test.summary()
        decision = s["decision"]
        cap = run["decision"]["max_deals"] if run["decision"] else None
        if decision == "inconclusive":
            decision = (
                f"inconclusive at {s['n']}" if cap == s["n"] else f"running ({s['n']} so far)"
            )
        else:
            decision = f"**{decision}** accepted"
        role = f", {settings['role']}" if settings["game"] == "doudizhu" else ""
        options = "".join(f", {k}={v}" for k, v in settings["options"].items())
        preset = "" if settings["preset"] == "standard" else f" {settings['preset']}"
        what = (
            f"{settings['game']}{preset}{options}{role}: {_agent(header['agents']['challenger'])} "
            f"vs {_agent(header['agents'].get('baseline', header['agents']['field']))}"
        )
        if "baseline" in header["agents"]:
            what += f" among {_agent(header['agents']['field'])}"
        ci = s["ci"]
        interval = "" if ci is None else f" [{ci[0]:+.3f}, {ci[1]:+.3f}]"
        lo, hi = s["bounds"]
        out.append(
            f"| {what} | {h['H0']} / {h['H1']} ({h['alpha']}, {h['beta']}) "
            f"| {decision} | {s['n']} | {s['mean']:+.3f}{interval} "
            f"| {s['llr']:+.2f} [{lo:.2f}, {hi:.2f}] | {_rates(run, s['n'])} |"
        )
        command = run["decision"]["command"] if run["decision"] else header["command"]
        note = f" {header['note']}" if header["note"] else ""
        commands.append(
            f"`{run['file']}`: d is the {header['score']}. shedkit {header['version']}, "
            f"{header['build']}, Python {header['python']}; {header['deal_seeds']}.{note}\n\n"
            f"```sh\n{command}\n```"
        )
    return "\n".join(out) + "\n\n" + "\n\n".join(commands) + "\n"


def update(page: str, block: str) -> str:
    """``page`` with ``block`` between its markers."""
    head, begin, rest = page.partition(BEGIN)
    _, end, tail = rest.partition(END)
    if not begin or not end:
        raise ValueError("the page lacks the sequential tests' markers")
    return f"{head}{BEGIN}\n\n{block}\n{END}{tail}"


def build(folder: Path = RESULTS, page: Path = PAGE) -> str:
    """The page's text as the files in ``folder`` make it."""
    runs = [read_run(p) for p in sorted(folder.glob("*.jsonl"))]
    return update(page.read_text(), render(runs))


def main(argv: list[str] | None = None) -> int:
    """Rewrite the page, or with ``--check`` only say whether it is up to date."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--check", action="store_true", help="exit 1 if the page is out of date")
    args = p.parse_args(argv)
    text = build()
    if args.check:
        if text != PAGE.read_text():
            print(f"{PAGE.relative_to(ROOT)} is out of date: run benchmarks/strength_report.py")
            return 1
        return 0
    PAGE.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
