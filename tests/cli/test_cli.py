"""The command line, in-process (Typer's runner) and as a real subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from spillebord.cli import app
from spillebord.core import registry
from toygame import TOY

registry.register(TOY)
runner = CliRunner()


def test_every_command_has_help() -> None:
    names = [c.name for c in app.registered_commands]
    assert {"games", "play", "replay", "bench", "serve", "rules", "arena", "results", "compare"} <= set(names)
    for cmd in names:
        assert cmd is not None
        r = runner.invoke(app, [cmd, "--help"])
        assert r.exit_code == 0, r.output
        assert "Usage" in r.output


def test_help_reflows_the_docstrings_paragraphs() -> None:
    """A line break inside a docstring's paragraph is not a break in the help: the text fills
    the terminal's width (before, every source line ended a help line, ragged at 80 columns)."""
    r = runner.invoke(app, ["results", "--help"], env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    # "score with" ends a source line of the docstring
    assert "add up to one score with one interval" in r.output


def test_games_lists_ids_and_options() -> None:
    r = runner.invoke(app, ["games"])
    assert r.exit_code == 0
    assert "toy" in r.output and "three-trick" in r.output
    r = runner.invoke(app, ["games", "toy"])
    assert "cards per seat" in r.output


def test_a_games_page_names_its_bots_and_what_each_level_plays() -> None:
    r = runner.invoke(app, ["games", "metscri"], env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    bots = "Bots: random, greedy, ismcts, heuristic, planner, gatherer, stager; the strongest: stager."
    assert bots in r.output
    # Metscri's Club and Expert are other bots (GameBots.levels); its Master searches
    assert (
        "Levels: Beginner · Casual (planner) · Club (planner) · Expert (gatherer) · "
        "Master (search, 100 iterations)." in r.output
    )
    r = runner.invoke(app, ["games", "revir"], env={"COLUMNS": "200"})
    assert "Club (heuristic) · Expert (search, 275 iterations) · Master (search, 1100 iterations)." in (
        r.output
    )


def test_bots_only_play_prints_a_result_and_saves_a_record(tmp_path: Path) -> None:
    rec = tmp_path / "game.json"
    r = runner.invoke(
        app,
        ["play", "toy", "--seats", "3", "--bots", "random,random,greedy", "--seed", "7", "--save", str(rec)],
    )
    assert r.exit_code == 0, r.output
    assert "final result" in r.output
    data = json.loads(rec.read_text())
    assert data["game"] == "toy" and data["outcome"] is not None
    r = runner.invoke(app, ["replay", str(rec), "--to", "2"])
    assert r.exit_code == 0, r.output
    assert "after 2/" in r.output


def test_human_seat_reads_numbers_and_texts() -> None:
    # seat 0 is human: answer "1" (first legal action) and then texts until the end.
    r = runner.invoke(
        app, ["play", "toy", "--bots", "human,random", "--seed", "2"], input="1\nbogus\n1\n1\n1\n"
    )
    assert r.exit_code == 0, r.output
    assert "not a legal action" in r.output
    assert "final result" in r.output


def test_user_errors_are_one_line_not_tracebacks(tmp_path: Path) -> None:
    cases = [
        (["play", "chess"], "no game 'chess'"),
        (["play", "toy", "--seats", "9", "--bots", "random"], "2–3 players, not 9"),
        (["play", "toy", "--bots", "random,random,random"], "names 3 seats"),
        (["play", "toy", "--bots", "alphazero,random"], "no agent 'alphazero'"),
        (["play", "toy", "-o", "colour=red", "--bots", "random"], "unknown option colour"),
        (["replay", str(tmp_path / "missing.json")], "no such file"),
        (["bench", "toy", "--games", "0"], "at least 1"),
    ]
    for args, message in cases:
        r = runner.invoke(app, args)
        assert r.exit_code == 2, (args, r.output)
        assert message in r.output, (args, r.output)
        assert "Traceback" not in r.output
    bad = tmp_path / "bad.json"
    bad.write_text(
        '{"format": "spillebord-record", "game": "toy", "seats": 2, "seed": 0, '
        '"actions": [{"seat": 0, "action": "fly"}]}'
    )
    r = runner.invoke(app, ["replay", str(bad)])
    assert r.exit_code == 2 and "does not replay" in r.output


def test_bench_json_shape() -> None:
    r = runner.invoke(app, ["bench", "toy", "--games", "20", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert set(data["toy"]) >= {"games", "decisions", "games_per_s", "decisions_per_s", "decisions_per_game"}
    assert data["toy"]["truncated"] == 0
    assert data["toy"]["games"] == 20 and data["toy"]["decisions_per_game"] == 6


def test_bench_reports_the_cost_of_copy_determinize_and_view() -> None:
    r = runner.invoke(app, ["bench", "toy", "--games", "5", "--json"])
    assert r.exit_code == 0, r.output
    toy = json.loads(r.output)["toy"]
    for key in ("copy_us", "determinize_us", "view_us"):
        assert isinstance(toy[key], float) and 0 < toy[key] < 10_000, (key, toy[key])


def test_console_script_runs() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "spillebord.cli", "--help"], capture_output=True, text=True, check=True
    )
    assert "serve" in out.stdout and "bench" in out.stdout


def test_quitting_keeps_the_unfinished_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    r = runner.invoke(app, ["play", "toy", "--bots", "human,random", "--seed", "2"], input="1\nq\n")
    assert r.exit_code == 0, r.output
    saved = list(tmp_path.rglob("toy-*.json"))
    assert len(saved) == 1 and "left unfinished" in r.output
    rec = json.loads(saved[0].read_text())
    assert rec["outcome"] is None and len(rec["actions"]) >= 1


def test_serve_explains_a_taken_port_and_an_absent_database(tmp_path: Path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        r = runner.invoke(app, ["serve", "--db", str(tmp_path / "t.sqlite3"), "--port", str(port)])
        assert r.exit_code == 2 and "choose another --port" in " ".join(r.output.split()), r.output
    cases = [
        (["serve", "--db", "foo://bar"], "unsupported database URL"),
        (["serve", "--db", "postgresql://nobody@127.0.0.1:1/x", "--port", "0"], "cannot reach the database"),
        (["serve", "--workers", "2", "--db", str(tmp_path / "t.sqlite3")], "needs PostgreSQL"),
    ]
    for args, message in cases:
        r = runner.invoke(app, args)
        assert r.exit_code == 2 and message in " ".join(r.output.split()), (args, r.output)
        assert "Traceback" not in r.output


def test_version_is_the_package_version() -> None:
    import spillebord

    r = runner.invoke(app, ["--version"])
    assert r.exit_code == 0 and r.output.strip() == f"spillebord {spillebord.__version__}"


def test_play_with_a_clock_shows_it_and_a_bot_takes_the_seat_out_of_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import spillebord.cli as cli

    now = [0.0]
    read = cli.console.input

    def slow_answer(*args: Any, **kw: Any) -> Any:
        now[0] += 50.0  # every answer takes 50 seconds
        return read(*args, **kw)

    monkeypatch.setattr(cli, "_now", lambda: now[0])
    monkeypatch.setattr(cli.console, "input", slow_answer)
    r = runner.invoke(
        app,
        ["play", "toy", "--bots", "human,random", "--seed", "2", "-o", "hand_size=4", "--clock", "2+5"],
        input="1\n1\n1\n",
    )
    assert r.exit_code == 0, r.output
    assert "clocks seat 0 2:00" in r.output  # 2 minutes, shown as the clock starts
    # First decision: 50 s used of 120, +5: 75 s left. Second: 75 - 50 + 5 = 30 s. Third: over.
    assert "seat 0 1:15" in r.output and "seat 0 0:30" in r.output
    assert "seat 0 is out of time" in r.output and "final result" in r.output


def test_play_with_a_clock_plays_forced_decisions_at_once() -> None:
    r = runner.invoke(
        app, ["play", "toy", "--bots", "human,random", "-o", "hand_size=1", "--clock", "1"], input=""
    )
    assert r.exit_code == 0, r.output
    assert "final result" in r.output and "left unfinished" not in r.output and "clocks" not in r.output


def test_play_clock_errors_are_one_line() -> None:
    for bad in ("soon", "0+1", "5+9999"):
        r = runner.invoke(app, ["play", "toy", "--clock", bad])
        assert r.exit_code != 0 and "--clock" in r.output and "Traceback" not in r.output


def test_serve_set_refuses_an_unknown_or_mistyped_setting(tmp_path: Path) -> None:
    db = str(tmp_path / "t.sqlite3")
    cases = [
        (["--set", "nope=1"], "NAME one of"),
        (["--set", "hint_seconds"], "expected NAME=VALUE"),
        (["--set", "hint_seconds=soon"], "'soon' is not a valid float"),
        (["--set", "client_seeds=maybe"], "'maybe' is not a valid bool"),
    ]
    for args, message in cases:
        r = runner.invoke(app, ["serve", "--db", db, "--port", "0", *args])
        assert r.exit_code == 2 and message in " ".join(r.output.split()), (args, r.output)
        assert "Traceback" not in r.output


def test_serve_passes_hint_and_review_settings_to_the_running_server(tmp_path: Path) -> None:
    import socket
    import time

    import httpx

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [
        sys.executable,
        "-m",
        "spillebord.cli",
        "serve",
        "--db",
        str(tmp_path / "t.sqlite3"),
        "--port",
        str(port),
        "--bot-processes",
        "0",
        "--hint-seconds",
        "1.5",
        "--set",
        "hint_iterations=77",
        "--set",
        "review-jobs=2",
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        url = f"http://127.0.0.1:{port}"
        for _ in range(300):
            try:
                httpx.get(url + "/api/games", timeout=1)
                break
            except httpx.TransportError:
                assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
                time.sleep(0.1)
        t = httpx.post(url + "/api/tables", json={"game": "kasino", "seats": 2}).json()
        got = httpx.get(f"{url}/api/tables/{t['table']}/hints").json()
        assert got == {"hints": True, "iterations": 77}
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_the_final_result_is_the_games_end_summary_not_its_ranking_number(tmp_path: Path) -> None:
    # Revir's score is one ranking number (best series x 1,000,000 + territories x 1,000 +
    # stones); a player reads the series, territories and stones, as on the web's end screen.
    from spillebord.core.summary import summary_of
    from spillebord.tables import Table

    rec = tmp_path / "revir.json"
    r = runner.invoke(
        app, ["play", "revir", "--bots", "greedy", "--seed", "3", "--save", str(rec)], env={"COLUMNS": "100"}
    )
    assert r.exit_code == 0, r.output
    state = Table.from_record(json.loads(rec.read_text())).state
    summ = summary_of(state)
    assert summ is not None
    lines = r.output.splitlines()
    for label, row in zip(
        ["Longest series", "Series to win", "Territories (revir)", "Stones"], summ["rows"], strict=True
    ):
        (line,) = [x for x in lines if x.startswith(f"│ {label} ")]
        assert [c.strip() for c in line.strip("│").split("│")[1:]] == [f"{v:g}" for v in row["values"]]
    (line,) = [x for x in lines if x.startswith("│ outcome ")]
    assert {c.strip() for c in line.strip("│").split("│")[1:]} == {"won", "lost"}
    assert "e+06" not in r.output and ",000" not in r.output


def test_levels_are_named_as_people_call_them_in_the_terminal() -> None:
    r = runner.invoke(app, ["play", "toy", "--bots", "club,MASTER", "--seed", "2"], env={"COLUMNS": "120"})
    assert r.exit_code == 0, r.output
    assert "0=Club (level3), 1=Master (level5)" in r.output
    assert "0: Club (level3)" in r.output and "1: Master (level5)" in r.output
