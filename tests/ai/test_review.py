"""Hints and game review: fair (only the reviewed seat's knowledge), reproducible, and they
find the bad moves of a bad player."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spillebord.ai import Budget, IsmctsAgent
from spillebord.ai.review import VERDICTS, hint, positions, review_game, verdict
from spillebord.cli import app
from spillebord.core import Rng, registry
from spillebord.tables import Table
from spillebord.testing import play_match
from toygame import TOY

registry.register(TOY)

BUDGET = Budget(iterations=200)


def _record(seed: int) -> tuple[list[tuple[int, str]], int]:
    """A toy game of the search (seat 0) against a bot that always plays its lowest card."""
    m = play_match(TOY, ["ismcts", "lowest"], seed=seed, budget=BUDGET)
    return list(m.actions), seed


def test_verdict_thresholds() -> None:
    assert [t for t, _ in VERDICTS] == [0.20, 0.10, 0.05]
    assert verdict(0.25, False) == "blunder"
    assert verdict(0.20, False) == "blunder"
    assert verdict(0.15, False) == "mistake"
    assert verdict(0.05, False) == "inaccuracy"
    assert verdict(0.01, False) == "good"
    assert verdict(0.0, True) == "best"


def test_hint_is_the_search_s_choice_with_its_top_three() -> None:
    s = TOY.new(2, seed=4)
    tips = hint(IsmctsAgent(TOY), s, 0, Rng(1), BUDGET)
    ranked = IsmctsAgent(TOY).analyse(s, 0, Rng(1), BUDGET)
    assert [t.action for t in tips] == [str(a) for a, _, _ in ranked[:3]]
    assert all(0.0 <= t.chance <= 1.0 for t in tips)
    assert sum(t.visits for t in tips) <= 200


def test_review_finds_the_lowest_card_player_s_mistakes() -> None:
    found = []
    for seed in range(12):
        actions, _ = _record(seed)
        todo = positions(TOY, 2, seed, None, actions, 1)
        found += review_game(TOY, todo, 1, IsmctsAgent(TOY), BUDGET, samples=48)
    bad = [j for j in found if j.verdict in ("mistake", "blunder")]
    assert bad, "a player who always plays its lowest card makes mistakes"
    for j in bad:
        assert j.best != j.played and j.loss >= 0.10
        assert j.chance_best - j.chance_played == pytest.approx(j.loss)
    assert all(j.verdict == "forced" for j in found if j.top == ())


def test_review_uses_only_the_reviewed_seat_s_knowledge() -> None:
    # The same decisions, but every state replaced by one the reviewed seat cannot tell apart
    # from it (other hands resampled): the review must not change at all.
    actions, seed = _record(5)
    todo = positions(TOY, 2, seed, None, actions, 0)
    disguised = [(i, s.determinize(0, Rng(99 + i)), a) for i, s, a in todo]
    a = review_game(TOY, todo, 0, IsmctsAgent(TOY), BUDGET, samples=16)
    b = review_game(TOY, disguised, 0, IsmctsAgent(TOY), BUDGET, samples=16)
    assert a == b


def test_review_is_reproducible() -> None:
    actions, seed = _record(3)
    todo = positions(TOY, 2, seed, None, actions, 1)
    assert review_game(TOY, todo, 1, IsmctsAgent(TOY), BUDGET) == review_game(
        TOY, todo, 1, IsmctsAgent(TOY), BUDGET
    )


def test_review_command_prints_marks_and_caches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    t = Table.create("revir", 2, seed=3, players=["Ana", "heuristic"])
    m = play_match(t.game, ["random", "heuristic"], seed=3)
    for s, a in m.actions:
        t.act(s, str(a))
    rec = tmp_path / "game.json"
    rec.write_text(t.to_json())
    runner = CliRunner()
    r = runner.invoke(app, ["review", str(rec), "--seat", "0", "--budget", "100it", "--samples", "8"])
    assert r.exit_code == 0, r.output
    assert "review of Ana's decisions" in r.output
    assert "decisions:" in r.output
    cached = list((tmp_path / "cache").rglob("*.json"))
    assert len(cached) == 1
    first = runner.invoke(app, ["review", str(rec), "--budget", "100it", "--samples", "8", "--json"])
    # the cached review answers, unchanged (a damaged cache would be recomputed)
    cached[0].write_text(cached[0].read_text())
    again = runner.invoke(app, ["review", str(rec), "--budget", "100it", "--samples", "8", "--json"])
    assert json.loads(first.output) == json.loads(again.output)
    assert {d["verdict"] for d in json.loads(first.output)["decisions"]} <= {
        "forced",
        "best",
        "good",
        "inaccuracy",
        "mistake",
        "blunder",
    }


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seat", "7"], "--seat must be 0–1"),
        (["--budget", "fast"], "a budget is a time or an iteration count"),
    ],
)
def test_review_command_errors_are_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    t = Table.create("revir", 2, seed=1)
    rec = tmp_path / "g.json"
    rec.write_text(t.to_json())
    r = CliRunner().invoke(app, ["review", str(rec), *args])
    assert r.exit_code == 2
    assert message in r.output
    assert "Traceback" not in r.output


def test_review_command_refuses_a_file_that_is_not_a_record(tmp_path: Path) -> None:
    bad = tmp_path / "x.json"
    bad.write_text('{"hello": 1}')
    r = CliRunner().invoke(app, ["review", str(bad)])
    assert r.exit_code == 2 and "not a Spillebord game record" in r.output
