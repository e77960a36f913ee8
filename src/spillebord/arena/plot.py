"""The arena's pictures (matplotlib, PNG): ratings with their intervals, and the pairwise
score matrix as a heatmap."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from . import Report
    from .files import PairTally


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


def write_scores_plot(
    tallies: list[PairTally], totals: list[PairTally], path: Path, bar: float | None = None
) -> list[tuple[str, float, float, float, list[float]]]:
    """Write one PNG of summed arena results (``spillebord results … --plot``): per pair of
    bots its score with the 95% interval of the games and, from 20 deals on, the one read deal
    by deal (a thick band), each file's own score as a small grey dot beside it
    (how far seeds and days spread), a line at an even score and, with ``bar``, one at the
    score a strength target asks for. Returns the rows drawn, top first: (label, score, low,
    high, the files' scores)."""
    import matplotlib

    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt

    path.parent.mkdir(parents=True, exist_ok=True)  # before drawing: a bad path fails at once
    rows = []
    for t in totals:
        lo, hi = t.interval
        figures = f"{t.score:.3f} ({lo:.3f}–{hi:.3f}), {t.games} games"
        by_deals = t.deal_interval
        if by_deals is not None:
            figures += f"; by deals {by_deals[0]:.3f}–{by_deals[1]:.3f}"
        rows.append((f"{t.game}: {t.first} vs {t.second}\n{figures}", t))
    fig, ax = plt.subplots(figsize=(8, 0.75 * len(rows) + 1.6), layout="constrained")
    n = len(rows)
    drawn: list[tuple[str, float, float, float, list[float]]] = []
    for i, (label, t) in enumerate(rows):
        y = n - 1 - i  # the first pair at the top
        lo, hi = t.interval
        err = [[t.score - lo], [hi - t.score]]
        ax.errorbar([t.score], [y], xerr=err, fmt="o", capsize=5, color="#1f5f8b")
        by_deals = t.deal_interval
        if by_deals is not None:  # the interval read deal by deal: a thick band under the other
            d_err = [[t.score - by_deals[0]], [by_deals[1] - t.score]]
            ax.errorbar([t.score], [y], xerr=d_err, fmt="none", elinewidth=6, alpha=0.3, color="#1f5f8b")
        shares: list[float] = []
        for part in tallies:  # each file's score, from the total's first bot's side
            if part.game != t.game or not part.games:
                continue
            if (part.first, part.second) == (t.first, t.second):
                share = part.score
            elif (part.first, part.second) == (t.second, t.first):
                share = 1.0 - part.score
            else:
                continue
            shares.append(share)
        ax.plot(shares, [y + 0.22] * len(shares), marker="|", markersize=9, color="#888888", linestyle="none")
        drawn.append((label.split("\n")[0], t.score, lo, hi, shares))
    ax.axvline(0.5, color="#555555", linestyle="--", linewidth=1, label="even")
    if bar is not None:
        ax.axvline(bar, color="#b03a2e", linestyle=":", linewidth=1.5, label=f"target {bar:.2f}")
    ax.set_yticks(list(range(n - 1, -1, -1)), [label for label, _ in rows])
    ax.set_ylim(-0.7, n - 0.3)
    ax.set_xlim(0.0, 1.0)
    ax.set_xlabel("score of the first bot (wins + ½ draws)\n95%: games thin, by deals thick; grey: each file")
    ax.set_title("Arena results")
    ax.grid(axis="x", alpha=0.3)
    ax.legend(loc="lower left", fontsize=8)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return drawn
