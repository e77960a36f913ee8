"""The arena: fair schedules, figures with intervals, the same results on every backend,
resumable results files, the sequential test."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from spillebord.ai import Budget
from spillebord.arena import ArenaError, BotSpec, Sequential, Tournament, first_points, parse_budget, run
from spillebord.arena.schedule import schedule
from spillebord.arena.stats import MIN_DEALS, MIN_INTERVAL_DEALS, deal_interval, sprt, student_t, wilson
from spillebord.core import registry
from toygame import TOY, LowestAgent

registry.register(TOY)
BOTS = (BotSpec("greedy"), BotSpec("random"), BotSpec("lowest"))


def games(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The results without their CPU times (which differ from run to run)."""
    return [{k: v for k, v in r.items() if k != "cpu_seconds"} for r in results]


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson(0.5, 100)
    assert (round(lo, 4), round(hi, 4)) == (0.4038, 0.5962)
    lo, hi = wilson(1.0, 20)  # a clean sweep is not certainty
    assert round(lo, 4) == 0.8389 and hi == 1.0
    assert wilson(0.0, 0) == (0.0, 1.0)


def test_student_t_quantiles_match_the_table() -> None:
    # the two-sided 95% points of Student's t, from the table: 19, 39 and 99 degrees of freedom
    assert student_t(19) == pytest.approx(2.093, abs=5e-4)
    assert student_t(39) == pytest.approx(2.0227, abs=5e-4)
    assert student_t(99) == pytest.approx(1.9842, abs=5e-4)
    assert student_t(9) == pytest.approx(2.2622, abs=1e-3)


def test_the_deal_interval_counts_a_deal_as_one_draw() -> None:
    # 100 deals of two games: 20 won on balance (1.0), 73 split (0.5), 7 lost (0.0). Mean
    # 0.565; the deals' variance 6.3275 / 99; half-width t(99) * sqrt(0.0639141 / 100) = 0.05016
    lo, hi = deal_interval([1.0] * 20 + [0.5] * 73 + [0.0] * 7) or (0.0, 0.0)
    assert (round(lo, 4), round(hi, 4)) == (0.5148, 0.6152)
    # the same 200 games counted one by one: wider, since a split deal's two games cancel
    assert wilson(0.565, 200)[0] == pytest.approx(0.4957, abs=1e-4)
    # games that go the same way in a deal (57 deals won twice, 43 lost twice): wider than
    # the games' interval, not narrower
    lo2, hi2 = deal_interval([1.0] * 57 + [0.0] * 43) or (0.0, 0.0)
    w_lo, w_hi = wilson(0.57, 200)
    assert lo2 < w_lo and hi2 > w_hi and (lo2 + hi2) / 2 == pytest.approx(0.57)
    # none from too few deals, nor from deals that all scored alike
    assert deal_interval([1.0, 0.5] * (MIN_INTERVAL_DEALS // 2)) is not None
    assert deal_interval([1.0, 0.5] * (MIN_INTERVAL_DEALS // 2) + [0.0])[0] < 0.75  # type: ignore[index]
    assert deal_interval([1.0] * 10 + [0.5] * (MIN_INTERVAL_DEALS - 11)) is None
    assert deal_interval([0.5] * 40) is None
    assert deal_interval([1.0] * 40) is None


def test_sprt_decides_both_ways_and_waits_for_enough_deals() -> None:
    # 16 deals scoring 0.875 on average (variance 0.05): LLR = 16 * 0.05 * 0.7 / 0.1 = 5.6
    strong = sprt([1.0, 1.0, 1.0, 0.5] * 4, 0.5, 0.55, 0.95)
    assert strong.verdict == "H1" and strong.llr == pytest.approx(5.6)
    assert sprt([0.0, 0.0, 0.0, 0.5] * 4, 0.5, 0.55, 0.95).verdict == "H0"
    assert sprt([1.0] * (MIN_DEALS - 1), 0.5, 0.55, 0.95).verdict is None
    assert sprt([1.0, 0.0] * 4, 0.5, 0.55, 0.95).verdict is None


def test_budgets_parse_and_bad_ones_are_refused() -> None:
    assert parse_budget("1s") == Budget(seconds=1.0)
    assert parse_budget("250ms") == Budget(seconds=0.25)
    assert parse_budget("500it") == Budget(iterations=500)
    for bad in ("fast", "0s", "1.5it", "-1s"):
        with pytest.raises(ArenaError):
            parse_budget(bad)
    assert BotSpec.parse("ismcts@2s").label == "ismcts@2s"


def test_duplicate_deals_rotate_the_seats_on_the_same_seed() -> None:
    specs = list(schedule(TOY, BOTS[:2], 2, TOY.Options(), 10, seed=4))
    assert len(specs) == 10
    for a, b in zip(specs[::2], specs[1::2], strict=True):
        assert a.seed == b.seed and a.deal == b.deal
        assert a.seat_bots == (0, 1) and b.seat_bots == (1, 0)
    assert len({s.seed for s in specs}) == 5


def test_three_sides_put_the_first_bot_on_each_side_in_turn() -> None:
    specs = list(schedule(TOY, BOTS[:2], 3, TOY.Options(), 3, seed=4))
    assert [s.seat_bots for s in specs] == [(0, 1, 1), (1, 0, 1), (1, 1, 0)]


def test_points_of_a_pair_add_up_and_the_figures_are_consistent() -> None:
    r = run(Tournament("toy", BOTS, games=20, seed=2))
    assert len(r.results) == 3 * 20
    for p in r.pairs:
        assert p.games == 20
    assert sum(b.points for b in r.bots.values()) == pytest.approx(len(r.results))
    m = r.matrix()
    assert m["greedy"]["random"] == pytest.approx(1 - m["random"]["greedy"])  # type: ignore[operator]
    data = r.to_json()
    assert set(data["bots"]) == {"greedy", "random", "lowest"}
    lo, hi = data["bots"]["greedy"]["interval95"]
    assert lo <= data["bots"]["greedy"]["score"] <= hi


def test_greedy_beats_random_at_the_toy_game() -> None:
    r = run(Tournament("toy", BOTS[:2], games=300, seed=1))
    greedy = r.bots["greedy"]
    assert greedy.interval[0] > 0.5, greedy.score
    assert greedy.mu > r.bots["random"].mu


def test_the_pool_gives_the_same_results_as_one_process() -> None:
    t = Tournament("toy", BOTS, games=30, seed=9)
    one, two = run(t, workers=1), run(t, workers=2, batch=4)
    assert one.to_json()["bots"] == two.to_json()["bots"]
    assert games(one.results) == games(two.results)
    assert two.backend == "process pool"


def test_a_results_file_resumes_an_interrupted_tournament(tmp_path: Path) -> None:
    t = Tournament("toy", BOTS, games=10, seed=5)
    whole = run(t)
    path = tmp_path / "results.jsonl"
    run(t, results_file=path)
    lines = path.read_text().splitlines()
    # an interruption: the last lines lost, one cut in half
    path.write_text("\n".join(lines[:12]) + "\n" + lines[12][:20])
    resumed = run(t, results_file=path)
    assert resumed.played_now == len(whole.results) - 11
    assert games(resumed.results) == games(whole.results)
    with pytest.raises(ArenaError, match="another tournament"):
        run(Tournament("toy", BOTS, games=12, seed=5), results_file=path)


class FailsInItsFourthGame:
    """Plays its lowest card, and fails in the fourth game it plays (a bot's bug, a killed
    worker): the games before it must be in the results file."""

    name = "fails4"
    needs = LowestAgent.needs

    def __init__(self, game: Any) -> None:
        self.games, self.last = 0, 1 << 30

    def act(self, state: Any, seat: int, rng: Any, budget: Any = None) -> Any:
        if state.decisions < self.last:  # a new game
            self.games += 1
        self.last = state.decisions
        if self.games == 4:
            raise RuntimeError("the fourth game")
        return state.legal()[0]


def test_the_pool_writes_each_game_as_it_ends_not_with_its_batch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One batch of 10 games on one worker, whose bot fails in its fourth game: the three
    # before it are in the results file (a batch of searching bots takes an hour; a stop or
    # a crash used to lose all of it), and the error reaches the caller.
    from spillebord.ai import registry as agents

    monkeypatch.setitem(agents._AGENTS, "fails4", FailsInItsFourthGame)
    t = Tournament("toy", (BotSpec("greedy"), BotSpec("fails4")), games=10, seed=3)
    path = tmp_path / "results.jsonl"
    with pytest.raises(RuntimeError, match="the fourth game"):
        run(t, workers=2, batch=10, results_file=path)
    written = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    assert [r["index"] for r in written] == [0, 1, 2]
    same = run(Tournament("toy", (BotSpec("greedy"), BotSpec("lowest")), games=10, seed=3))
    assert games(written) == games(same.results)[:3]  # the games as played, to the end


class FailsOnceElsewhereSlow:
    """The first of these bots to act, in any worker, fails; every other one thinks 0.5 s a
    decision (a searching bot in the other worker)."""

    name = "fails-once"
    needs = LowestAgent.needs

    def __init__(self, game: Any) -> None:
        pass

    def act(self, state: Any, seat: int, rng: Any, budget: Any = None) -> Any:
        import os
        import time

        try:  # one process wins the file: that bot fails
            os.close(os.open(os.environ["SPILLEBORD_TEST_FAIL_ONCE"], os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            time.sleep(0.5)
            return state.legal()[0]
        raise RuntimeError("the failing bot")


def test_a_failing_bot_ends_the_pool_at_once_not_after_the_other_batches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The other worker's batch and the queued ones would take half a minute (games of about a
    # dozen of its decisions at 0.5 s each, more batches queued): the error comes long before.
    import time

    from spillebord.ai import registry as agents

    monkeypatch.setitem(agents._AGENTS, "fails-once", FailsOnceElsewhereSlow)
    monkeypatch.setenv("SPILLEBORD_TEST_FAIL_ONCE", str(tmp_path / "failed"))
    t = Tournament("toy", (BotSpec("greedy"), BotSpec("fails-once")), games=40, seed=3)
    start = time.monotonic()
    with pytest.raises(RuntimeError, match="the failing bot"):
        run(t, workers=2, batch=10)
    assert time.monotonic() - start < 10.0


def test_a_failed_batch_waits_for_its_workers_mark_before_the_error_is_raised() -> None:
    # A worker's future can fail before its last games have crossed the stream (CI saw the
    # third game missing): the error is due once the worker's mark, sent after those games,
    # has come, or after 10 s when no mark will come (a dead worker).
    from concurrent.futures import Future

    from spillebord.arena import _InFlight

    ok: Future[int] = Future()
    ok.set_result(3)
    assert not _InFlight(ok, set()).error_is_due()
    failed: Future[int] = Future()
    failed.set_exception(RuntimeError("the fourth game"))
    h = _InFlight(failed, {3, 4})
    assert not h.error_is_due()
    h.marked = True
    assert h.error_is_due()
    dead = _InFlight(failed, {3, 4})
    assert not dead.error_is_due() and dead.seen is not None
    dead.seen -= 11.0
    assert dead.error_is_due()


def test_the_sequential_test_stops_a_decided_pair_the_same_way_everywhere() -> None:
    t = Tournament("toy", BOTS[:2], games=2000, seed=1, sequential=Sequential(0.95, 0.05))
    one, two = run(t), run(t, workers=2)
    (p,) = one.pairs
    assert p.test is not None and p.test.verdict == "H1" and p.stopped_after is not None
    assert p.games == 2 * p.stopped_after < 2000
    assert games(one.results) == games(two.results)


def test_errors_are_readable() -> None:
    with pytest.raises(ArenaError, match="no bot 'nobody'"):
        run(Tournament("toy", (BotSpec("greedy"), BotSpec("nobody"))))
    with pytest.raises(ArenaError, match="2–3 players, not 5"):
        run(Tournament("toy", BOTS, seats=5))
    with pytest.raises(ArenaError, match="at least two bots"):
        run(Tournament("toy", BOTS[:1]))
    with pytest.raises(ArenaError, match="named twice"):
        run(Tournament("toy", (BotSpec("greedy"), BotSpec("greedy"))))


def test_ray_on_this_machine_gives_the_same_results_as_the_pool() -> None:
    # Ray is the 'cluster' extra, which the test extra installs: a missing Ray fails here.
    # Ray's workers are fresh processes, so this uses a game of the installed package.
    # One batch of 8 games, one Ray generator task: each game comes back as it ends
    # (one game's time apart, 4-9 ms on a fast machine), not all with the batch
    # (microseconds apart). The median gap, not the sum: a fast machine plays the
    # whole batch in under 50 ms.
    import time
    from itertools import pairwise

    t = Tournament("kasino", (BotSpec("greedy"), BotSpec("random")), games=8, seed=3, options={"target": 40})
    pool = run(t, workers=2)
    came: list[float] = []
    on_ray = run(t, ray="local", workers=2, batch=8, on_game=lambda r, resumed: came.append(time.monotonic()))
    assert on_ray.backend == "ray"
    assert games(on_ray.results) == games(pool.results)
    assert len(came) == 8
    gaps = sorted(b - a for a, b in pairwise(came))
    assert gaps[len(gaps) // 2] > 0.002, gaps


def test_cli_arena_says_which_bot_failed_where_and_what_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A researcher's own agent with a bug: one line, not a traceback, with the games kept.
    from typer.testing import CliRunner

    from spillebord.ai import registry as agents
    from spillebord.cli import app

    class FailsInTheFourthGameOfTheRun(FailsInItsFourthGame):
        """One count for the run (the arena makes a bot for each batch of games)."""

        started = 0

        def act(self, state: Any, seat: int, rng: Any, budget: Any = None) -> Any:
            if state.decisions < self.last:  # a new game
                type(self).started += 1
            self.last = state.decisions
            if type(self).started == 4:
                raise RuntimeError("the fourth game")
            return state.legal()[0]

    monkeypatch.setitem(agents._AGENTS, "fails4", FailsInTheFourthGameOfTheRun)
    res = tmp_path / "res.jsonl"
    args = ["arena", "toy", "-b", "greedy,fails4", "-g", "10", "-w", "1", "--results", str(res)]
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 1
    out = " ".join(r.output.split())
    assert "error: the run failed: RuntimeError: the fourth game (test_arena.py:" in out
    assert f"3 games are in {res}: the same command resumes." in out
    assert "Traceback" not in r.output
    FailsInTheFourthGameOfTheRun.started = 0
    r = CliRunner().invoke(app, args[:-2])
    assert "No game was kept: give --results FILE" in " ".join(r.output.split())
    # in a pool worker too, the place is the bot's, not the pool's
    monkeypatch.setitem(agents._AGENTS, "fails4", FailsInItsFourthGame)
    pooled = ["arena", "toy", "-b", "greedy,fails4", "-g", "400", "-w", "2"]  # batches of 16
    r = CliRunner().invoke(app, pooled)
    assert r.exit_code == 1
    out = " ".join(r.output.split())
    assert "error: the run failed: RuntimeError: the fourth game (test_arena.py:" in out


def test_cli_arena_table_json_plots_and_replay(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from spillebord.cli import app

    runner = CliRunner()
    r = runner.invoke(app, ["arena", "toy", "--bots", "random,greedy", "--games", "20", "-w", "1"])
    assert r.exit_code == 0, r.output
    assert "95% interval" in r.output and "rating" in r.output
    assert "deals, random vs greedy: " in r.output and " split, " in r.output
    res = tmp_path / "res.jsonl"
    args = [
        "arena",
        "toy",
        "-b",
        "random,greedy",
        "-g",
        "20",
        "--json",
        "--plot",
        str(tmp_path),
        "--results",
        str(res),
    ]
    r = runner.invoke(app, args)
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)  # the progress lines go to stderr
    assert data["bots"]["greedy"]["games"] == 20
    # deal by deal (10 deals, two rotations each), as `results` reads the same file
    (pair,) = data["pairs"]
    assert sum(pair["deals"].values()) == 10 and pair["deals"]["lost"] > pair["deals"]["won"]
    r = runner.invoke(app, ["results", str(res), "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["totals"][0]["deals"] == pair["deals"]
    # three sides: an equal opponent leaves the first bot a third, and both read it so
    res3 = tmp_path / "res3.jsonl"
    args3 = ["arena", "toy", "-n", "3", "-b", "random,greedy", "-g", "30", "-w", "1", "--json"]
    r = runner.invoke(app, [*args3, "--results", str(res3)])
    assert r.exit_code == 0, r.output
    (pair3,) = json.loads(r.stdout)["pairs"]
    r = runner.invoke(app, ["results", str(res3), "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["totals"][0]["deals"] == pair3["deals"]
    assert sum(pair3["deals"].values()) == 10 and pair3["deals"]["won"] + pair3["deals"]["lost"] > 0
    for png in data["plots"]:
        assert Path(png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    r = runner.invoke(app, ["replay", str(res), "--game", "3"])
    assert r.exit_code == 0 and "final result" in r.output
    r = runner.invoke(app, ["arena", "toy", "-b", "random,alphazero"])
    assert r.exit_code == 2 and "no bot 'alphazero'" in r.output
    r = runner.invoke(app, ["arena", "toy", "-b", "random,greedy", "--results", str(tmp_path)])
    assert r.exit_code == 2 and "cannot use the results file" in r.output
    r = runner.invoke(app, ["arena", "toy", "--budget", "soon"])
    assert r.exit_code == 2 and "a budget is" in r.output


def test_the_arena_counts_the_games_stopped_at_the_length_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pair whose games never end (Metscri's hoarding bots did) is told, not just slow."""
    from typer.testing import CliRunner

    from spillebord.cli import app
    from spillebord.core import GameKind
    from toygame import ToyGame

    class CappedToy(ToyGame):
        id = "toy-capped"
        title = "Toy (capped)"
        kind = GameKind(hidden_information=True, chance=True, public_actions=True, max_decisions=3)

    monkeypatch.setitem(registry._GAMES, "toy-capped", CappedToy())  # for this test only
    r = CliRunner().invoke(app, ["arena", "toy-capped", "-b", "random,greedy", "-g", "4", "-w", "1"])
    assert r.exit_code == 0, r.output
    assert "random vs greedy: 4 of 4 games stopped at the engine's length cap (3 decisions)" in r.output
    r = CliRunner().invoke(app, ["arena", "toy", "-b", "random,greedy", "-g", "4", "-w", "1", "--json"])
    assert json.loads(r.stdout)["pairs"][0]["truncated"] == 0
    r = CliRunner().invoke(
        app, ["arena", "toy-capped", "-b", "random,greedy", "-g", "4", "-w", "1", "--json"]
    )
    assert json.loads(r.stdout)["pairs"][0]["truncated"] == 4


def test_cli_arena_off_a_terminal_prints_where_it_stands_with_the_running_score_unless_blind(
    tmp_path: Path,
) -> None:
    # A long run in the background (nohup, a log file) has no bar: it gets plain lines on
    # stderr instead, the first new game at once, and the first bot's score so far.
    from typer.testing import CliRunner

    from spillebord.arena.stats import wilson
    from spillebord.cli import app

    res = tmp_path / "res.jsonl"
    runner = CliRunner()
    args = ["arena", "toy", "-b", "greedy,random", "-g", "20", "-w", "1", "-s", "4", "--results", str(res)]
    r = runner.invoke(app, args)
    assert r.exit_code == 0, r.output
    lines = r.stderr.splitlines()
    assert lines[0].startswith("arena toy: 1/20 games, ") and "left; greedy " in lines[0]
    report = run(Tournament("toy", BOTS[:2], games=20, seed=4))
    score = report.bots["greedy"].score
    lo, hi = wilson(score, 20)
    assert lines[-1].startswith("arena toy: 20/20 games, ") and "left" not in lines[-1]
    assert lines[-1].endswith(f"greedy {score:.3f} (95% {lo:.3f}–{hi:.3f}) against random")
    # resumed: the games read back count in the score, and the line says where they came from
    kept = res.read_text().splitlines()[:11]  # the header and 10 games
    res.write_text("\n".join(kept) + "\n")
    r = runner.invoke(app, args)
    assert r.exit_code == 0, r.output
    lines = r.stderr.splitlines()
    assert lines[0].startswith("arena toy: 11/20 games (10 from the results file), ")
    assert lines[-1].endswith(f"greedy {score:.3f} (95% {lo:.3f}–{hi:.3f}) against random")
    # --blind (a run whose length was fixed before it): no score in any line but the last one,
    # and the figures at the end are the whole run's
    res.write_text("\n".join(kept) + "\n")
    blind = runner.invoke(app, [*args, "--blind"])
    assert blind.exit_code == 0, blind.output
    lines = blind.stderr.splitlines()
    assert lines[0].startswith("arena toy: 11/20 games (10 from the results file), ")
    assert all("greedy" not in line for line in lines[:-1]), lines
    assert lines[-1].endswith(f"greedy {score:.3f} (95% {lo:.3f}–{hi:.3f}) against random")
    figures = [[x for x in out.stdout.splitlines() if "games/s" not in x] for out in (blind, r)]
    assert figures[0] == figures[1] and any(x.startswith("deals, greedy vs random") for x in figures[0])


def test_arena_progress_lines_come_at_most_once_a_period_and_at_the_end() -> None:
    from rich.progress import Progress

    from spillebord.cli import _ArenaProgress

    now = [0.0]
    shown = _ArenaProgress(Progress(disable=True), "toy", ["a", "b", "c"], every=60, clock=lambda: now[0])
    printed = []
    import contextlib
    import io

    for done, t in enumerate([1, 30, 59, 61, 100, 200, 230], start=1):
        now[0] = t
        out = io.StringIO()
        with contextlib.redirect_stderr(out):
            shown.tick(done, 7)
        printed += out.getvalue().splitlines()
    # the first game, then 61 (60 s after 1), then 200 (139 after 61), then the end; no score
    # with three bots (their pairings' first bots differ)
    assert [p.split(",")[0] for p in printed] == [
        "arena toy: 1/7 games",
        "arena toy: 4/7 games",
        "arena toy: 6/7 games",
        "arena toy: 7/7 games",
    ]
    assert printed[1] == "arena toy: 4/7 games, 1m 01s, about 46s left"
    assert all(";" not in p for p in printed)


def test_results_files_sum_to_one_score_per_pair_from_either_side(tmp_path: Path) -> None:
    from spillebord.arena.files import tally_file, total

    a, b, c = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    ra = run(Tournament("toy", BOTS[:2], games=20, seed=1), results_file=a)  # greedy vs random
    rb = run(Tournament("toy", BOTS[:2], games=10, seed=2), results_file=b)
    rc = run(Tournament("toy", (BOTS[1], BOTS[0]), games=10, seed=3), results_file=c)  # the other way
    (ta,) = tally_file(a)
    assert (ta.first, ta.second, ta.games) == ("greedy", "random", 20)
    assert ta.points == ra.pairs[0].points
    assert sum(n for _, n in ta.by_seat.values()) == 20 and set(ta.by_seat) == {0, 1}
    (sums,) = total(tally_file(a) + tally_file(b) + tally_file(c))
    points = ra.pairs[0].points + rb.pairs[0].points + (10 - rc.pairs[0].points)
    assert (sums.first, sums.games, sums.points) == ("greedy", 40, points)
    assert sums.interval == wilson(points / 40, 40)
    # the by-seat split counts only the files read from the first bot's side
    assert sum(n for _, n in sums.by_seat.values()) == 30


def test_cli_results_reads_files_cut_short_and_refuses_others_readably(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from spillebord.cli import app

    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    ra = run(Tournament("toy", BOTS[:2], games=20, seed=1), results_file=a)
    rb = run(Tournament("toy", BOTS[:2], games=10, seed=2), results_file=b)
    lines = b.read_text().splitlines()
    b.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:30])  # the last game cut short
    kept = run(Tournament("toy", BOTS[:2], games=10, seed=2)).results[:9]
    runner = CliRunner()
    r = runner.invoke(app, ["results", str(a), str(b), "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert [f["games"] for f in data["files"]] == [20, 9]
    assert [f["planned"] for f in data["files"]] == [20, 10]
    (t,) = data["totals"]
    assert (t["games"], t["planned"]) == (29, 30)
    assert t["points"] == ra.pairs[0].points + sum(first_points(g) for g in kept)
    assert rb.pairs[0].games == 10
    r = runner.invoke(app, ["results", str(a), str(b)], env={"COLUMNS": "200"})
    assert r.exit_code == 0 and "total" in r.stdout and "greedy vs random" in r.stdout
    # a run under way (or stopped) says so: its score so far is not its result
    out = " ".join(r.stdout.split())
    assert "b.jsonl: 9 of 10 games of greedy vs random, a run under way or stopped" in out
    assert "a.jsonl: 20 of" not in out
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    r = runner.invoke(app, ["results", str(bad)])
    assert r.exit_code == 2 and "is not an arena results file" in r.output
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join([*lines[:3], "{oops", *lines[4:]]) + "\n")
    r = runner.invoke(app, ["results", str(broken)])
    assert r.exit_code == 2 and "line 4: not a game's result" in r.output
    r = runner.invoke(app, ["results", str(tmp_path / "none.jsonl")])
    assert r.exit_code == 2 and "cannot read" in r.output


def test_a_blind_run_shows_no_score_in_results_before_its_last_game(tmp_path: Path) -> None:
    # No peeking: a run whose stopping rule was fixed before it is not read while under way.
    from typer.testing import CliRunner

    from spillebord.arena.files import is_blind
    from spillebord.cli import app

    t = Tournament("toy", BOTS[:2], games=10, seed=2)
    blind, seen = tmp_path / "blind.jsonl", tmp_path / "seen.jsonl"
    run(t, results_file=blind, blind=True)
    run(Tournament("toy", BOTS[:2], games=10, seed=1), results_file=seen)
    assert is_blind(blind) and not is_blind(seen) and not is_blind(tmp_path / "none.jsonl")
    lines = blind.read_text().splitlines()
    blind.write_text("\n".join(lines[:7]) + "\n")  # stopped after 6 games
    runner = CliRunner()
    r = runner.invoke(app, ["results", str(blind), str(seen), "--json"])
    data = json.loads(r.stdout)
    assert [f["file"] for f in data["files"]] == [str(seen)]
    assert data["withheld"] == [
        {"file": str(blind), "first": "greedy", "second": "random", "games": 6, "planned": 10}
    ]
    assert data["totals"][0]["games"] == 10
    r = runner.invoke(app, ["results", str(blind)], env={"COLUMNS": "200"})
    assert r.exit_code == 0 and "score" not in r.stdout.replace("its score comes", "")
    out = " ".join(r.stdout.split())
    assert "blind.jsonl: a blind run of greedy vs random under way, 6 of 10 games" in out
    r = runner.invoke(app, ["results", str(blind), "--plot", str(tmp_path / "p.png")])
    assert r.exit_code == 2 and "nothing to draw" in r.output
    r = runner.invoke(app, ["results", str(blind), "--unblind", "--json"])
    assert json.loads(r.stdout)["files"][0]["games"] == 6
    r = runner.invoke(app, ["compare", str(seen), "vs", str(blind)])
    assert r.exit_code == 2 and "is a blind run under way (6 of 10 games)" in " ".join(r.output.split())
    # resumed without --blind it stays blind; its last game shows the score
    args = ["arena", "toy", "-b", "greedy,random", "-g", "10", "--seed", "2", "--results", str(blind)]
    r = runner.invoke(app, args)
    assert r.exit_code == 0 and is_blind(blind)
    r = runner.invoke(app, ["results", str(blind), "--json"])
    assert json.loads(r.stdout)["files"][0]["games"] == 10
    # a run resumed with --blind says so in its file from then on, its games kept
    before = seen.read_text().splitlines()[1:]
    seen.write_text("\n".join(seen.read_text().splitlines()[:5]) + "\n")
    run(Tournament("toy", BOTS[:2], games=10, seed=1), results_file=seen, blind=True)
    assert is_blind(seen) and seen.read_text().splitlines()[1:5] == before[:4]


def test_results_read_duplicate_deals_deal_by_deal_with_the_score_margin(tmp_path: Path) -> None:
    """Each deal is played once per rotation of the seats: ``results`` counts the deals the
    first bot won on balance, split and lost, and the mean margin of the game's own scores
    (tricks in the toy game), from either bot's side."""
    from typer.testing import CliRunner

    from spillebord.arena.files import tally_file, total
    from spillebord.arena.stats import Z95
    from spillebord.cli import app

    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    run(Tournament("toy", BOTS[:2], games=20, seed=1), results_file=a)  # greedy vs random
    run(Tournament("toy", (BOTS[1], BOTS[0]), games=10, seed=3), results_file=b)  # the other way
    games = [json.loads(line) for line in a.read_text().splitlines()[1:]]
    by_deal: dict[int, list[float]] = {}
    margins = []
    for g in games:
        greedy = g["seat_bots"].index(0)
        by_deal.setdefault(g["deal"], []).append(g["outcome"][greedy])
        margins.append(g["scores"][greedy] - g["scores"][1 - greedy])
    assert len(by_deal) == 10 and all(len(v) == 2 for v in by_deal.values())
    won = sum(sum(v) > 1 for v in by_deal.values())
    lost = sum(sum(v) < 1 for v in by_deal.values())
    (ta,) = tally_file(a)
    assert ta.deals == (won, 10 - won - lost, lost)
    assert won > lost  # greedy beats random: a tally that counted nothing would fail here
    mean = sum(margins) / 20
    half = Z95 * (sum((m - mean) ** 2 for m in margins) / 19) ** 0.5 / 20**0.5
    assert ta.margin is not None
    assert ta.margin[0] == pytest.approx(mean) and ta.margin[1] == pytest.approx(half)
    assert mean > 0
    # the file read from random's side adds its deals and margins turned round
    (tb,) = tally_file(b)
    (t,) = total([ta, tb])
    wb, sb, lb = tb.deals
    assert t.deals == (won + lb, 10 - won - lost + sb, lost + wb)
    assert len(t.margins) == 30 and t.margins[20:] == [-m for m in tb.margins]
    runner = CliRunner()
    r = runner.invoke(app, ["results", str(a), str(b), "--json"])
    assert r.exit_code == 0, r.output
    (tot,) = json.loads(r.stdout)["totals"]
    assert tot["deals"] == dict(zip(("won", "split", "lost"), t.deals, strict=True))
    assert tot["margin"]["mean"] == pytest.approx(sum(t.margins) / 30)
    assert tot["deal_interval"] is None  # 15 deals: too few to read a spread from
    r = runner.invoke(app, ["results", str(a)], env={"COLUMNS": "250"})
    assert r.exit_code == 0 and f"{won}/{10 - won - lost}/{lost}" in r.stdout
    assert f"{mean:+.3g} ± {half:.3g}" in r.stdout


def test_results_and_the_arena_give_the_interval_read_deal_by_deal(tmp_path: Path) -> None:
    """From 20 deals on, ``results`` and the arena's summary give the score's interval read
    deal by deal: greedy's mean over each deal's two games, from the games in the file."""
    from typer.testing import CliRunner

    from spillebord.arena.files import tally_file
    from spillebord.cli import app

    a = tmp_path / "a.jsonl"
    report = run(Tournament("toy", BOTS[:2], games=44, seed=5), results_file=a)  # greedy vs random
    by_deal: dict[int, list[float]] = {}
    for g in (json.loads(line) for line in a.read_text().splitlines()[1:]):
        by_deal.setdefault(g["deal"], []).append(g["outcome"][g["seat_bots"].index(0)])
    scores = [sum(v) / len(v) for v in by_deal.values()]
    assert len(scores) == 22 and len(set(scores)) > 1
    want = deal_interval(scores)
    assert want is not None
    (t,) = tally_file(a)
    assert t.deal_interval == pytest.approx(want)
    (pair,) = report.pairs
    assert pair.deal_interval == pytest.approx(want)
    runner = CliRunner()
    r = runner.invoke(app, ["results", str(a), "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["files"][0]["deal_interval"] == pytest.approx(list(want))
    r = runner.invoke(app, ["results", str(a)], env={"COLUMNS": "250"})
    assert r.exit_code == 0 and f"{want[0]:.3f}–{want[1]:.3f}" in r.stdout
    # a narrow terminal gets a block per row: no figure broken in the middle
    r = runner.invoke(app, ["results", str(a)], env={"COLUMNS": "80"})
    lo, hi = t.interval
    assert r.exit_code == 0 and "┃" not in r.stdout
    line = f"44 games, score {t.score:.3f}, 95% {lo:.3f}–{hi:.3f}, read deal by deal"
    assert f"{line} {want[0]:.3f}–{want[1]:.3f}" in r.stdout
    arena = ["arena", "toy", "--bots", "greedy,random", "--games", "44", "--seed", "5"]
    r = runner.invoke(app, arena, env={"COLUMNS": "250"})
    assert r.exit_code == 0, r.output
    assert f"read deal by deal, 95% {want[0]:.3f}–{want[1]:.3f}" in r.stdout
    r = runner.invoke(app, [*arena, "--json"])
    assert json.loads(r.stdout)["pairs"][0]["deal_interval95"] == pytest.approx(list(want), abs=1e-4)


def test_cli_results_draws_the_totals_and_each_files_score_from_the_first_bots_side(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from spillebord.arena.files import tally_file, total
    from spillebord.arena.plot import write_scores_plot
    from spillebord.cli import app

    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    run(Tournament("toy", BOTS[:2], games=20, seed=1), results_file=a)  # greedy vs random
    run(Tournament("toy", (BOTS[1], BOTS[0]), games=10, seed=3), results_file=b)  # the other way
    tallies = tally_file(a) + tally_file(b)
    (t,) = total(tallies)
    drawn = write_scores_plot(tallies, [t], tmp_path / "direct.png", bar=0.7)
    (ta,), (tb,) = tally_file(a), tally_file(b)
    assert (tb.first, tb.second) == ("random", "greedy")
    # each file's dot from greedy's side: b's score is random's, so greedy's is one less it
    assert drawn == [("toy: greedy vs random", t.score, *t.interval, [ta.score, 1.0 - tb.score])]
    png = tmp_path / "pics" / "strength.png"  # the folder is made
    runner = CliRunner()
    r = runner.invoke(app, ["results", str(a), str(b), "--json", "--plot", str(png), "--bar", "0.7"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["plot"] == str(png)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    r = runner.invoke(app, ["results", str(a), "--plot", str(png)], env={"COLUMNS": "200"})
    assert r.exit_code == 0 and f"picture: {png}" in r.stdout
    r = runner.invoke(app, ["results", str(a), "--plot", str(png), "--bar", "70"])
    assert r.exit_code == 2 and "--bar is a score between 0 and 1" in r.output
    r = runner.invoke(app, ["results", str(a), "--bar", "0.7"])
    assert r.exit_code == 2 and "give --plot" in r.output
    r = runner.invoke(app, ["results", str(a), "--plot", str(a / "x.png")])  # a file is no folder
    assert r.exit_code == 2 and "cannot write" in r.output


def _games_in(path: Path) -> dict[int, dict[str, Any]]:
    """A results file's games by index, without their CPU seconds (which vary run to run)."""
    out: dict[int, dict[str, Any]] = {}
    for line in path.read_text().splitlines()[1:]:
        r = json.loads(line)
        r.pop("cpu_seconds", None)
        out[r["index"]] = r
    return out


@pytest.mark.parametrize("how", ["replaced", "removed"])
def test_a_results_file_replaced_or_removed_mid_run_loses_no_game(tmp_path: Path, how: str) -> None:
    # `git stash` of the folder swaps the file for another (a new inode): the games appended
    # after that went into the old, unlinked file and were lost (3 games of a Master run).
    res = tmp_path / "res.jsonl"
    t = Tournament("toy", BOTS[:2], games=12, seed=5)
    seen: list[int] = []

    def swap(r: dict[str, Any], resumed: bool) -> None:
        seen.append(r["index"])
        if len(seen) == 4:
            lines = res.read_text().splitlines()
            if how == "replaced":  # the state of two games ago, as a checkout would leave it
                stale = tmp_path / "stale.jsonl"
                stale.write_text("\n".join(lines[:3]) + "\n")
                stale.replace(res)
            else:
                res.unlink()

    report = run(t, results_file=res, on_game=swap)
    alone = run(t)
    assert report.played_now == 12 and len(report.results) == 12
    assert set(_games_in(res)) == set(range(12))
    played = {r["index"]: {k: v for k, v in r.items() if k != "cpu_seconds"} for r in alone.results}
    assert _games_in(res) == played
    assert json.loads(res.read_text().splitlines()[0])["format"] == "spillebord-arena"
    again = run(t, results_file=res)  # and it resumes as any results file does
    assert again.played_now == 0


def test_a_foreign_file_in_place_of_the_results_is_kept_and_the_games_go_beside_it(
    tmp_path: Path,
) -> None:
    res = tmp_path / "res.jsonl"
    other = tmp_path / "other.jsonl"
    run(Tournament("toy", BOTS[1:], games=4, seed=1), results_file=other)
    t = Tournament("toy", BOTS[:2], games=8, seed=2)
    count = [0]

    def swap(r: dict[str, Any], resumed: bool) -> None:
        count[0] += 1
        if count[0] == 3:
            res.write_bytes(other.read_bytes())  # the same inode, other content...
            res.unlink()
            res.write_bytes(other.read_bytes())  # ...and a new one

    run(t, results_file=res, on_game=swap)
    assert res.read_bytes() == other.read_bytes()
    assert set(_games_in(tmp_path / "res.jsonl.recovered")) == set(range(8))
    # the name beside it taken by another tournament too: a name of the run's own
    (tmp_path / "res.jsonl.recovered").write_bytes(other.read_bytes())
    (tmp_path / "res.jsonl").unlink()
    count[0] = 0
    run(t, results_file=res, on_game=swap)
    assert (tmp_path / "res.jsonl.recovered").read_bytes() == other.read_bytes()
    (own,) = tmp_path.glob("res.jsonl.recovered-*")
    assert set(_games_in(own)) == set(range(8))
