"""A run's progress as a picture: win rate against ``greedy`` by training time.

One line per role (the model as landlord against greedy peasants, the model's
peasants against a greedy landlord), each point a checkpoint's evaluation on
the same deals with its 95 % Wilson interval, and greedy's own win rate in that
role on those deals as a dashed line: where a role's line crosses it, the model
does better there than greedy.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

from shedkit.core.errors import OptionError
from shedkit.core.extras import require_extra

__all__ = ["plot_history", "read_history"]

_ROLES = (("landlord", "as landlord"), ("peasants", "as peasants"))


def read_history(folder: str | Path) -> list[dict[str, Any]]:
    """The lines of a run's ``history.jsonl`` that carry an evaluation."""
    path = Path(folder) / "history.jsonl"
    if not path.is_file():
        raise OptionError(f"{folder}: no history.jsonl (is it a shedkit train folder?)")
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    return [line for line in lines if line.get("eval")]


def plot_history(folder: str | Path, path: str | Path | None = None) -> Path:
    """Draw the run in ``folder`` to ``path`` (default ``FOLDER/progress.png``)."""
    require_extra("arena", "shedkit train plot", "matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    history = read_history(folder)
    if not history:
        raise OptionError(f"{folder}: no evaluation yet (one is made at each checkpoint)")
    target = Path(path) if path is not None else Path(folder) / "progress.png"
    fig, ax = plt.subplots(figsize=(8, 4.5))
    hours = [line["eval"]["hours"] for line in history]
    for (role, label), colour in zip(_ROLES, ("tab:red", "tab:blue"), strict=True):
        stats = [line["eval"]["roles"][role] for line in history]
        wp = [s["wp"] for s in stats]
        low = [s["wp"] - s["wp_ci"][0] for s in stats]
        high = [s["wp_ci"][1] - s["wp"] for s in stats]
        ax.errorbar(hours, wp, yerr=[low, high], marker="o", capsize=3, color=colour, label=label)
        greedy = [s["wp"] - s["d"] for s in stats]
        ax.plot(hours, greedy, linestyle="--", color=colour, alpha=0.6, label=f"greedy {label}")
    # Where a resumed run changed its actors' backend, a line says which runs from there.
    for before, line in itertools.pairwise(history):
        if line.get("backend") != before.get("backend"):
            at = (before["eval"]["hours"] + line["eval"]["hours"]) / 2
            ax.axvline(at, color="grey", linestyle=":", linewidth=1)
            ax.text(at, 0.97, f" {line.get('backend')}", va="top", fontsize="small", color="grey")
    deals = history[-1]["eval"]["roles"]["landlord"]["deals"]
    ax.set_xlabel("training time (hours)")
    ax.set_ylabel(f"win rate against greedy ({deals} deals, 95 % interval)")
    ax.set_ylim(0, 1)
    frames = history[-1]["frames"]
    ax.set_title(f"shedkit train doudizhu: {frames:,} frames")
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize="small")
    fig.tight_layout()
    fig.savefig(target, dpi=110)
    plt.close(fig)
    return target
