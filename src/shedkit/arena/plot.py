"""A picture of a tournament's results (matplotlib, no display needed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["plot_results"]


def plot_results(results: dict[str, Any], path: str | Path) -> Path:
    """Bar charts of each agent's win rate and mean score per role, with their 95 % intervals.

    A third panel shows the openskill ordinals. The file type follows the
    suffix of ``path`` (``.png``, ``.svg``, ``.pdf``).
    """
    from shedkit.core.extras import require_extra

    require_extra("arena", "shedkit.arena.plot", "matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    stats = results["stats"]
    agents = list(stats)
    roles = [r for r in next(iter(stats.values())) if r != "all"] or ["all"]
    fig, axes = plt.subplots(1, 3, figsize=(14, 4.5))
    width = 0.8 / len(roles)
    panels = [("wp", "wp_ci", "win proportion"), ("score", "score_ci", results["score_name"])]
    for ax, (key, ci_key, label) in zip(axes[:2], panels, strict=True):
        for j, role in enumerate(roles):
            xs, ys, lows, highs = [], [], [], []
            for i, agent in enumerate(agents):
                row = stats[agent].get(role, {})
                if not row.get("games"):
                    continue
                xs.append(i + (j - (len(roles) - 1) / 2) * width)
                ys.append(row[key])
                lows.append(row[key] - row[ci_key][0])
                highs.append(row[ci_key][1] - row[key])
            ax.bar(xs, ys, width, yerr=[lows, highs], capsize=4, label=role)
        ax.set_xticks(range(len(agents)), agents)
        ax.set_ylabel(label)
        ax.set_title(f"{label} (95 % interval)")
        if len(roles) > 1:
            ax.legend()
    ratings = results["ratings"]
    names = list(ratings)
    axes[2].barh(names, [ratings[n]["ordinal"] for n in names])
    axes[2].set_title("openskill ordinal (mu - 3 sigma)")
    fig.suptitle(
        f"{results['game']}: {', '.join(agents)} — {results['deals']} deals x "
        f"{len(results['arrangements'])} seatings, seed {results['seed']}"
    )
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
