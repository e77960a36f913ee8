"""`spillebord compare`: two bots, each played against the same opponent on the same deals
(two arena runs with the same seed), read side by side deal by deal."""

from __future__ import annotations

import json
import math
import statistics
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spillebord.arena import ArenaError, BotSpec, Tournament, run
from spillebord.arena.files import compare
from spillebord.arena.stats import student_t
from spillebord.cli import app
from spillebord.core import registry
from toygame import TOY

registry.register(TOY)
GREEDY, RANDOM, LOWEST = BotSpec("greedy"), BotSpec("random"), BotSpec("lowest")


def _deal_means(path: Path, bot: int, key: str = "outcome") -> dict[int, float]:
    """The bot's (its index in the file's bots) mean outcome on each deal, from the file; with
    ``key="scores"`` its mean margin in tricks over the other bot."""
    by_deal: dict[int, list[float]] = {}
    for line in path.read_text().splitlines()[1:]:
        g = json.loads(line)
        seat = g["seat_bots"].index(bot)
        x = g[key][seat] - (g[key][1 - seat] if key == "scores" else 0)
        by_deal.setdefault(g["seed"], []).append(x)
    return {seed: sum(v) / len(v) for seed, v in by_deal.items()}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("compare")
    files = {
        "greedy": d / "greedy.jsonl",  # greedy vs random, seed 7: 22 deals
        "lowest": d / "lowest.jsonl",  # lowest vs random, the same deals
        "lowest_turned": d / "lowest_turned.jsonl",  # random vs lowest: the same games read the other way
        "other_seed": d / "other_seed.jsonl",
    }
    run(Tournament("toy", (GREEDY, RANDOM), games=44, seed=7), results_file=files["greedy"])
    run(Tournament("toy", (LOWEST, RANDOM), games=44, seed=7), results_file=files["lowest"])
    run(Tournament("toy", (RANDOM, LOWEST), games=44, seed=7), results_file=files["lowest_turned"])
    run(Tournament("toy", (LOWEST, RANDOM), games=10, seed=8), results_file=files["other_seed"])
    return files


def test_the_difference_is_read_deal_by_deal_with_students_t(runs: dict[str, Path]) -> None:
    greedy, lowest = _deal_means(runs["greedy"], 0), _deal_means(runs["lowest"], 0)
    assert greedy.keys() == lowest.keys() and len(greedy) == 22  # the same seed: the same deals
    diffs = [greedy[s] - lowest[s] for s in sorted(greedy)]
    mean = statistics.fmean(diffs)
    half = student_t(21) * statistics.stdev(diffs) / math.sqrt(22)
    p = compare([runs["greedy"]], [runs["lowest"]])
    assert (p.game, p.first, p.second, p.opponent, p.deals) == ("toy", "greedy", "lowest", "random", 22)
    assert p.first_score == pytest.approx(statistics.fmean(greedy.values()))
    assert p.second_score == pytest.approx(statistics.fmean(lowest.values()))
    assert p.difference == pytest.approx(mean)
    assert p.interval == pytest.approx((mean - half, mean + half))
    assert p.split == (sum(x > 0 for x in diffs), sum(x == 0 for x in diffs), sum(x < 0 for x in diffs))
    # greedy takes tricks that lowest throws away: a comparison that read nothing fails here
    assert p.difference > 0 and p.split[0] > p.split[2]
    assert p.verdict == ("greedy ahead, shown" if mean - half > 0 else "no difference shown")
    # the margins in tricks, paired the same way
    mg, ml = _deal_means(runs["greedy"], 0, "scores"), _deal_means(runs["lowest"], 0, "scores")
    mdiffs = [mg[s] - ml[s] for s in sorted(mg)]
    assert p.first_margins == pytest.approx(tuple(mg[s] for s in sorted(mg)))
    assert p.margin == pytest.approx(
        (statistics.fmean(mdiffs), student_t(21) * statistics.stdev(mdiffs) / math.sqrt(22))
    )
    assert p.margin is not None and p.margin[0] > 0


def test_a_run_read_from_the_opponents_side_gives_the_same_comparison(runs: dict[str, Path]) -> None:
    """The opponent may be the first bot of a run: its points are turned round."""
    a = compare([runs["greedy"]], [runs["lowest"]])
    b = compare([runs["greedy"]], [runs["lowest_turned"]])
    assert b.second == "lowest" and b.opponent == "random"
    assert b.first_scores == a.first_scores
    # the turned run drew its bots' seeds in the other order: other games on the same deals
    turned = _deal_means(runs["lowest_turned"], 1)
    assert b.second_scores == pytest.approx(tuple(turned[s] for s in sorted(turned)))
    assert b.second_margins == pytest.approx(tuple(-x for x in _margins_of(runs["lowest_turned"])))
    swapped = compare([runs["lowest"]], [runs["greedy"]])
    assert swapped.difference == pytest.approx(-a.difference)
    assert a.margin is not None and swapped.margin is not None
    assert swapped.margin[0] == pytest.approx(-a.margin[0])
    assert swapped.split == a.split[::-1]


def _margins_of(path: Path) -> list[float]:
    """The first bot's mean margin in tricks on each deal, by seed."""
    m = _deal_means(path, 0, "scores")
    return [m[s] for s in sorted(m)]


def test_a_run_beside_itself_differs_nowhere(runs: dict[str, Path]) -> None:
    p = compare([runs["greedy"]], [runs["greedy"]])
    assert (p.first, p.second, p.opponent) == ("greedy", "greedy", "random")  # two versions of one bot
    assert p.difference == 0.0 and p.split == (0, 22, 0)
    assert p.interval is None and "no interval" in p.verdict
    # only the deals both runs played in full count
    q = compare([runs["lowest"]], [runs["lowest"], runs["other_seed"]])
    assert q.deals == 22


def test_runs_that_cannot_be_compared_are_refused_readably(runs: dict[str, Path], tmp_path: Path) -> None:
    with pytest.raises(ArenaError, match="share no deal"):
        compare([runs["greedy"]], [runs["other_seed"]])
    three = tmp_path / "three.jsonl"
    run(Tournament("toy", (LOWEST, GREEDY), games=4, seed=7), results_file=three)
    with pytest.raises(ArenaError, match="the second files hold greedy vs random, lowest vs greedy: give"):
        compare([runs["lowest"]], [runs["greedy"], three])
    lines = runs["lowest"].read_text().splitlines()
    header = json.loads(lines[0])
    header["tournament"]["bots"] = ["lowest", "someone"]
    renamed = tmp_path / "renamed.jsonl"
    renamed.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    with pytest.raises(ArenaError, match=r"no bot plays in both runs \(greedy vs random; lowest vs some"):
        compare([runs["greedy"]], [renamed])
    with pytest.raises(ArenaError, match="--opponent greedy does not play in both runs"):
        compare([runs["greedy"]], [runs["lowest"]], opponent="greedy")
    newer = tmp_path / "newer.jsonl"
    header = json.loads(lines[0])
    header["tournament"]["engine"] += 1
    newer.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    with pytest.raises(ArenaError, match=r"another engine version than .*greedy.jsonl: the same seed is not"):
        compare([runs["greedy"]], [newer])
    shorter = tmp_path / "shorter.jsonl"
    run(Tournament("toy", (LOWEST, RANDOM), games=4, seed=7, options={"hand_size": 2}), results_file=shorter)
    with pytest.raises(ArenaError, match="another options"):
        compare([runs["greedy"]], [shorter])
    sides3 = tmp_path / "sides3.jsonl"
    run(Tournament("toy", (LOWEST, RANDOM), games=6, seed=7, seats=3), results_file=sides3)
    with pytest.raises(ArenaError, match="3 sides"):
        compare([runs["greedy"]], [sides3])


def test_cli_compare_prints_the_figures_and_refuses_bad_input(runs: dict[str, Path]) -> None:
    runner = CliRunner()
    a, b = str(runs["greedy"]), str(runs["lowest"])
    p = compare([runs["greedy"]], [runs["lowest"]])
    r = runner.invoke(app, ["compare", a, "vs", b, "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data == json.loads(json.dumps(p.to_json()))
    assert data["deals_better_same_worse"] == dict(zip(("better", "same", "worse"), p.split, strict=True))
    r = runner.invoke(app, ["compare", a, "vs", b], env={"COLUMNS": "80"})
    assert r.exit_code == 0, r.output
    assert p.interval is not None
    lo, hi = p.interval
    scores = f"greedy {p.first_score:.3f}, lowest {p.second_score:.3f}"
    assert f"22 deals both runs played in full: {scores}" in r.stdout
    assert f"difference {p.difference:+.3f}, 95% {lo:+.3f} to {hi:+.3f} (read deal by deal)" in r.stdout
    assert "better/the same/worse: {}/{}/{}".format(*p.split) in r.stdout
    assert p.margin is not None
    assert f"greedy less lowest: {p.margin[0]:+.3g} ± {p.margin[1]:.3g}" in r.stdout
    assert data["margin"] == {"mean": pytest.approx(p.margin[0]), "half_width": pytest.approx(p.margin[1])}
    assert p.verdict in r.stdout
    for bad in (["compare", a, b], ["compare", a, "vs", "vs", b], ["compare", "vs", b]):
        r = runner.invoke(app, bad)
        assert r.exit_code == 2 and "error:" in r.output and "Traceback" not in r.output
    r = runner.invoke(app, ["compare", a, "vs", a], env={"COLUMNS": "250"})  # two versions of one bot
    assert r.exit_code == 0 and f"first: {a}; second: {a}" in r.stdout
    r = runner.invoke(app, ["compare", a, "vs", b], env={"COLUMNS": "250"})
    assert "first:" not in r.stdout
    r = runner.invoke(app, ["compare", a, "vs", a + ".missing"])
    assert r.exit_code == 2 and "cannot read" in r.output
