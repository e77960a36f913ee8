"""The arena's pictures (matplotlib, PNG): ratings with their intervals, and the pairwise
score matrix as a heatmap."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from . import Report


def write_plots(report: Report, directory: Path) -> list[Path]:
    """Write ``ratings.png`` and ``pairwise.png`` into ``directory``; their paths."""
    import matplotlib

    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt

    directory.mkdir(parents=True, exist_ok=True)
    desc = report.description
    title = f"{desc['game']}, {desc['seats']} seats, {sum(b.games for b in report.bots.values()) // 2} games"
    bots = sorted(report.bots.values(), key=lambda b: b.mu)

    fig, ax = plt.subplots(figsize=(7, 0.6 * len(bots) + 1.6), layout="constrained")
    ys = range(len(bots))
    ax.errorbar(
        [b.mu for b in bots],
        list(ys),
        xerr=[2 * b.sigma for b in bots],
        fmt="o",
        capsize=4,
        color="#1f5f8b",
    )
    ax.set_yticks(
        list(ys), [f"{b.label}\n{b.score:.2f} ({b.interval[0]:.2f}–{b.interval[1]:.2f})" for b in bots]
    )
    ax.set_xlabel("OpenSkill rating μ ± 2σ")
    ax.set_title(f"Ratings — {title}")
    ax.grid(axis="x", alpha=0.3)
    ratings = directory / "ratings.png"
    fig.savefig(ratings, dpi=120)
    plt.close(fig)

    labels = list(report.bots)
    m = report.matrix()
    grid = [[float("nan") if m[a][b] is None else float(m[a][b] or 0.0) for b in labels] for a in labels]
    size = 1.1 * len(labels) + 2.2
    fig, ax = plt.subplots(figsize=(size + 1, size), layout="constrained")
    im = ax.imshow(grid, cmap="RdYlGn", vmin=0.0, vmax=1.0)
    ax.set_xticks(range(len(labels)), labels, rotation=30, ha="right")
    ax.set_yticks(range(len(labels)), labels)
    for i, a in enumerate(labels):
        for j, b in enumerate(labels):
            v = m[a][b]
            ax.text(j, i, "—" if v is None else f"{v:.2f}", ha="center", va="center", fontsize=10)
    ax.set_xlabel("opponent")
    ax.set_ylabel("bot")
    ax.set_title(f"Score of row against column — {title}")
    fig.colorbar(im, ax=ax, shrink=0.8, label="score (wins + ½ draws)")
    pairwise = directory / "pairwise.png"
    fig.savefig(pairwise, dpi=120)
    plt.close(fig)
    return [ratings, pairwise]
