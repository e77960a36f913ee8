"""The terminal as a new player meets it: one screen holds the board, the last moves, the
legal actions (grouped, paged, narrowed as one types), the last error and the prompt."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from spillebord.cli import app, render_view
from spillebord.core import registry
from spillebord.tables import Table
from spillebord.terminal import Picker, screen
from spillebord.testing import random_walk
from toygame import TOY

registry.register(TOY)
runner = CliRunner()

GAMES = ["metscri", "88", "touche", "revir", "partners", "kasino", "fuldrigger"]
SIZES = [(80, 24), (120, 40)]


def _lines(renderable: Any, width: int, rows: int) -> list[str]:
    c = Console(width=width, height=rows, file=io.StringIO(), color_system=None, legacy_windows=False)
    with c.capture() as cap:
        c.print(renderable)
    return cap.get().rstrip("\n").split("\n")


def _busiest(game_id: str) -> list[Any]:
    """The position with the longest legal list and the one with the tallest picture (at 80
    columns), from seeded random games at the fewest and the most seats."""
    g = registry.get(game_id)
    longest: tuple[int, Any] = (0, None)
    tallest: tuple[int, Any] = (0, None)
    for seats in sorted({g.seats.start, g.seats.stop - 1}):
        for seed in (0, 1):
            for i, s in enumerate(random_walk(g, seats, seed, dict(g.quick_options), check=False, steps=240)):
                if s.to_act is None:
                    break
                n = len(s.legal())
                if n > longest[0]:
                    longest = (n, s.copy())
                if i % 5 == 0:
                    h = len(_lines(render_view(g, s.view(s.to_act), s.to_act), 80, 1000))
                    if h > tallest[0]:
                        tallest = (h, s.copy())
    return [longest[1], tallest[1]]


@pytest.mark.parametrize("game_id", GAMES)
def test_the_board_the_last_moves_and_the_prompt_fit_one_screen(game_id: str) -> None:
    g = registry.get(game_id)
    moves = [f"seat 1 does thing number {k}" for k in range(30)]
    for s in _busiest(game_id):
        seat = s.to_act
        board = render_view(g, s.view(seat), seat)
        for width, rows in SIZES:
            picker = Picker.of(s.legal())
            error = f"{g.title}: that is not legal now (an error the player must see)"
            out = _lines(screen(board, moves, picker, error, width, rows), width, rows)
            first = _lines(board, width, rows)[0]
            assert len(out) + 1 <= rows, (game_id, width, rows, len(out))  # + the prompt's line
            assert max(len(line) for line in out) <= width
            assert out[0] == first  # the board's top is on screen
            assert any("thing number 29" in line for line in out)  # the last move
            assert out[-1].startswith(f"{g.title}: that is not legal")  # the last error, last
            if len(s.legal()) > 10:
                assert any(f"of {len(s.legal())}" in line for line in out)  # paged, with a count


def test_picker_numbers_pages_filter_and_no_option_99() -> None:
    actions = [
        f"enter {c}{d} r{r}c{k}" for c in ("JS", "8C") for d in "ab" for r in range(5) for k in range(7)
    ]
    p = Picker.of([_A(a) for a in actions])
    assert len(actions) == 140
    lines = [t.plain for t in p.lines(12, 80)]
    assert lines[0].startswith("groups: enter JSa (35)")
    assert "1–10 of 140" in lines[-1]
    assert p.answer("") == (None, None) and p.page == 1  # Enter: the next page
    assert "11–20 of 140" in p.lines(12, 80)[-1].plain
    assert p.answer("<") == (None, None) and p.page == 0
    assert p.answer("99") == (actions[98], None)
    assert p.answer("141") == (None, "no option 141 (the options are 1–140)")
    assert p.answer("8cb r3") == (None, None)  # part of an action narrows the list
    shown = [t.plain for t in p.lines(12, 80)]
    assert [x.split()[-1] for x in shown[:-1]] == [f"r3c{k}" for k in range(7)]
    assert shown[0].split()[0] == str(actions.index("enter 8Cb r3c0") + 1)  # numbers of the full list
    assert p.answer("enter 8Cb r3c4") == ("enter 8Cb r3c4", None)
    assert p.answer("/") == (None, None) and len(p.matches()) == 140
    assert p.answer("fly away") == ("fly away", None)  # the game will say why not


class _A:
    def __init__(self, text: str) -> None:
        self.text = text

    def __str__(self) -> str:
        return self.text


def test_kasino_reads_the_suit_symbols_it_prints() -> None:
    g = registry.get("kasino")
    s = g.new(2, 3)
    card = s.view(s.to_act)["hand"][0]  # e.g. "QD"
    symbol = card[:-1] + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[card[-1]]
    assert str(g.parse(s, f"{symbol} trail")) == f"{card} trail"
    assert str(g.parse(s, f"{card.lower()} trail")) == f"{card} trail"
    p = Picker.of(s.legal())
    assert p.answer(f"{symbol} trail", lambda t: g.parse(s, t)) == (f"{card} trail", None)


def test_kasino_at_the_keyboard_symbols_and_a_number_outside_the_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    t = Table.create(registry.get("kasino"), 2, 5, {}, players=["human", "random"])
    while t.to_act != 0:
        t.act(t.to_act, t.legal_texts()[0])
    card = t.view(0)["hand"][0]
    symbol = card[:-1] + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[card[-1]]
    r = runner.invoke(
        app, ["play", "kasino", "--bots", "human,random", "--seed", "5"], input=f"99\n{symbol} trail\nq\n"
    )
    assert r.exit_code == 0, r.output
    assert "no option 99" in r.output
    assert f"seat 0 trails {symbol}" in r.output
    assert "Traceback" not in r.output


def test_partners_at_two_seats_shows_both_hands() -> None:
    g = registry.get("partners")
    s = g.new(2, 1)
    v = s.view(0)
    assert sorted(v["hands"]) == ["0", "2"]  # seat 0 plays yellow and blue (R10.3)
    out = "\n".join(_lines(render_view(g, v, 0), 80, 100))
    assert "You play yellow and blue" in out
    assert re.search(r"Yellow( ▶)?: \[", out) and re.search(r"Blue( ▶)?: \[", out)


def test_metscri_grid_is_compact() -> None:
    g = registry.get("metscri")
    for s in _busiest("metscri"):
        out = _lines(render_view(g, s.view(s.to_act), s.to_act), 80, 200)
        text = "\n".join(out)
        assert text.count("ring") == 1  # in the legend, not in every cell
        assert max(len(x) for x in out) <= 80
        assert len(out) <= 19
        rows = [x for x in out if x.lstrip("│ ").startswith(("r0 ", "r6 "))]
        assert len(rows) == 2  # a board row is one line


def test_save_is_refused_up_front(tmp_path: Path) -> None:
    bots = ["play", "toy", "--bots", "random", "--seed", "1"]
    r = runner.invoke(app, [*bots, "--save", str(tmp_path)])
    assert r.exit_code == 2 and "is a directory" in r.output and "final result" not in r.output
    blocker = tmp_path / "file.txt"
    blocker.write_text("x")
    r = runner.invoke(app, [*bots, "--save", str(blocker / "game.json")])
    assert r.exit_code == 2 and "cannot write the record" in r.output and "final result" not in r.output
    assert "Traceback" not in r.output


def test_serve_port_out_of_range_is_one_line() -> None:
    r = runner.invoke(app, ["serve", "--port", "99999"])
    assert r.exit_code == 2 and "--port must be 0–65535, not 99999" in r.output
    assert "Traceback" not in r.output


def test_play_resume_continues_a_saved_game(tmp_path: Path) -> None:
    rec = tmp_path / "toy.json"
    r = runner.invoke(
        app, ["play", "toy", "--bots", "human,random", "--seed", "2", "--save", str(rec)], input="1\nq\n"
    )
    assert r.exit_code == 0 and "left unfinished" in r.output and "--resume" in r.output
    first = json.loads(rec.read_text())
    assert first["outcome"] is None
    done = len(first["actions"])
    r = runner.invoke(app, ["play", "toy", "--resume", str(rec), "--seed", "3"])
    assert r.exit_code == 2 and "do not apply" in r.output
    r = runner.invoke(app, ["play", "resume", "--resume", str(rec)], input="1\n" * 6)
    assert r.exit_code == 0, r.output
    assert "final result" in r.output
    last = json.loads(rec.read_text())  # saved back into the resumed file
    assert last["outcome"] is not None and last["actions"][:done] == first["actions"]
    assert last["players"] == ["human", "random"]
    r = runner.invoke(app, ["play", "toy", "--resume", str(rec)])
    assert r.exit_code == 2 and "is finished" in r.output
    r = runner.invoke(app, ["play", "kasino", "--resume", str(tmp_path / "none.json")])
    assert r.exit_code == 2 and "no such file" in r.output


def test_a_hint_names_the_search_s_top_three_with_their_chances(monkeypatch: pytest.MonkeyPatch) -> None:
    import spillebord.cli as cli

    monkeypatch.setattr(cli, "HINT_BUDGET_SECONDS", 0.05)
    r = runner.invoke(app, ["play", "toy", "--bots", "human,random", "--seed", "2"], input="?\nq\n")
    assert r.exit_code == 0, r.output
    line = next(ln for ln in r.output.splitlines() if "hint: 1." in ln)
    assert re.search(r"1\. play \d+ \(\d+%\) · 2\. play \d+ \(\d+%\) · 3\. play \d+ \(\d+%\)", line), line


def test_hints_can_be_switched_off() -> None:
    r = runner.invoke(
        app, ["play", "toy", "--bots", "human,random", "--seed", "2", "--no-hints"], input="?\nq\n"
    )
    assert r.exit_code == 0, r.output
    assert "hints are off for this game" in r.output
    assert "hint: 1." not in r.output


def test_fuldrigger_bot_moves_are_one_line_each() -> None:
    from spillebord.cli import event_lines

    g = registry.get("fuldrigger")
    from spillebord.games.fuldrigger.positions import scenario

    s = scenario(M=9, ships=[{"owner": 0, "at": "LON"}, {"owner": 1, "at": "AMS"}])
    events = []
    for sq in ["DOVR", "KAN1", "KANW", "BIS1", "BIS2", "FINI"]:
        events += s.play(g.parse(s, f"sail s1 {sq}"))
    assert event_lines(g, events) == ["Seat 0's s1 sails DOVR → … → FINI (6 squares; head wind on BIS2)."]
    k = registry.get("kasino")  # a game without a summary: each event's text
    assert event_lines(k, [{"kind": "x", "text": "one"}, {"kind": "y"}]) == ["one"]
