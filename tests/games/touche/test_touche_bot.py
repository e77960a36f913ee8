"""Touché bots: the heuristic bot against random play; evaluate(); the terminal picture."""

from __future__ import annotations

from typing import Any

from rich.console import Console

from spillebord.ai import decide, make_agent
from spillebord.core import Rng
from spillebord.games.touche import GAME, ToucheOptions
from spillebord.games.touche.render import render
from spillebord.games.touche.rules import position


def play_match(a: str, b: str, games: int, grade: int, seats: int = 2) -> tuple[int, int]:
    """(wins of agent a, draws); a sits at even seats in even games, odd seats in odd ones."""
    o = ToucheOptions(grade=grade, match_games=1, match_max_games=1)
    A, B = make_agent(a, GAME), make_agent(b, GAME)
    wins = draws = 0
    for g in range(games):
        s = GAME.new(seats, 1000 + g, o)
        rng = Rng(g)
        mine = g % 2
        while s.to_act is not None:
            agent: Any = A if s.side_of[s.to_act] == mine else B
            s.play(decide(agent, s, rng))
        res = s.result()
        assert res is not None
        wins += res[s.side_of.index(mine)] == 1.0
        draws += s.games[-1][1] == -1
    return wins, draws


def test_heuristic_bot_beats_random_in_80_percent_of_200_games_at_grade_2() -> None:
    wins, _ = play_match("heuristic", "random", 200, 2)
    assert wins >= 160, wins


def test_heuristic_bot_beats_random_at_other_grades() -> None:
    for grade in (1, 3, 4, 5):
        wins, _ = play_match("heuristic", "random", 12, grade)
        assert wins >= 10, (grade, wins)


def test_greedy_with_evaluate_beats_random() -> None:
    wins, _ = play_match("greedy", "random", 10, 2)
    assert wins >= 8


def test_best_bot_is_registered() -> None:
    assert GAME.best_bot == "heuristic"
    assert make_agent("best", GAME).name == "heuristic"


def test_heuristic_completes_and_blocks() -> None:
    agent = make_agent("heuristic", GAME)
    # completes a square when it can
    s = position(grade=1, marks={"r3c0": 0, "r3c1": 0, "r4c0": 0}, hands={0: ["7D", "AS", "KH", "3S", "JK"]})
    assert str(agent.act(s, 0, Rng(1))) == "place 7D r4c1"
    # blocks an opponent's four-of-five line
    s = position(
        grade=2,
        marks={"r3c0": 1, "r3c1": 1, "r3c2": 1, "r3c3": 1},
        hands={0: ["4S", "AH", "KH", "2H", "3H"]},
    )
    assert str(agent.act(s, 0, Rng(1))) == "place 4S r3c4"


def test_evaluate_prefers_own_progress() -> None:
    a = position(grade=1, marks={"r3c0": 0, "r3c1": 0, "r4c0": 0})
    b = position(grade=1, marks={"r3c0": 1, "r3c1": 1, "r4c0": 1})
    assert GAME.evaluate(a, 0) > GAME.evaluate(b, 0)
    assert GAME.evaluate(b, 1) > GAME.evaluate(b, 0)


def test_render_draws_markers_crowns_and_free_spaces() -> None:
    s = position(
        grade=1,
        crowned=[(0, ["r4c10", "r4c11", "r5c10", "r5c11"])],
        marks={"r3c0": 1},
        hands={0: ["7D", "AS", "KH", "3S", "JK"]},
    )
    console = Console(width=120, record=True, color_system=None)
    console.print(render(s.view(0), 0))
    text = console.export_text()
    assert "P♛FR" in text and "b 2♦" in text and "FR" in text
    assert "[JK]" in text and "Grade 1" in text
    console.print(render(s.view(None), None))


def test_render_every_phase_of_a_random_game() -> None:
    s = GAME.new(3, 2, ToucheOptions(grade=0, match_games=1, match_max_games=1, max_turns=24))
    rng = Rng(2)
    console = Console(width=120, record=True, color_system=None)
    phases = set()
    while True:
        phases.add(s.view(None)["phase"])
        console.print(render(s.view(s.to_act), s.to_act))
        if s.to_act is None:
            break
        s.play(rng.choice(s.legal()))
    assert {"grade", "play", "over"} <= phases
