"""The terminal in the player's language (``--lang en|da|sv|no``, by default the locale's):
event lines, action labels, the end summary, the score table, the prompts and messages and the
board's words; what a person types (numbers, the engine's notation, part of a label) works
as in English."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spillebord.cli import app, render_view
from spillebord.core import registry
from spillebord.tables import Table
from spillebord.terminal import Picker, screen
from spillebord.texts import GameText, card_text
from spillebord.words import say

sys.path.insert(0, str(Path(__file__).parent))
from test_terminal import GAMES, SIZES, _busiest, _lines

from toygame import TOY

registry.register(TOY)

runner = CliRunner()
BOTS = ["play", "kasino", "--bots", "random,greedy", "--seed", "7"]


def test_a_danish_game_of_bots_ends_with_a_danish_summary() -> None:
    r = runner.invoke(app, [*BOTS, "--lang", "da"])
    assert r.exit_code == 0, r.output
    out = r.output
    assert "Kasino, 2 spillere: 0=random, 1=greedy" in out
    assert "Kasino: slutresultat" in out
    for row in ("Kort", "Spar", "Esser", "Store kasino (ruder 10)", "Svuppere", "Point i alt", "udfald"):
        assert row in out, row
    assert "vandt" in out and "tabte" in out
    assert "96 beslutninger" in out
    for english in ("players", "final result", "Cards", "Match points", "outcome", "won", "decisions"):
        assert english not in out, english


def test_english_is_what_it_was_and_the_locale_chooses_the_default() -> None:
    english = runner.invoke(app, BOTS)
    assert "Kasino, 2 players: 0=random, 1=greedy" in english.output
    assert "Match points" in english.output and "96 decisions" in english.output
    assert runner.invoke(app, [*BOTS, "--lang", "en"]).output == english.output
    danish = runner.invoke(app, BOTS, env={"LANG": "da_DK.UTF-8"})
    assert danish.output == runner.invoke(app, [*BOTS, "--lang", "da"]).output
    assert runner.invoke(app, BOTS, env={"LANG": "sv_SE.UTF-8"}).output.count("Poäng totalt") == 1
    assert "Poeng totalt" in runner.invoke(app, BOTS, env={"LANG": "nb_NO.UTF-8"}).output
    # LC_ALL wins over LANG; --lang over both
    assert runner.invoke(app, BOTS, env={"LC_ALL": "C", "LANG": "da_DK.UTF-8"}).output == english.output
    assert runner.invoke(app, [*BOTS, "--lang", "en"], env={"LANG": "da_DK.UTF-8"}).output == english.output


@pytest.mark.parametrize("command", [BOTS, ["replay", "x.json"], ["review", "x.json"]])
def test_an_unknown_language_is_one_line_naming_the_choices(command: list[str]) -> None:
    r = runner.invoke(app, [*command, "--lang", "fr"])
    assert r.exit_code == 2
    lines = r.output.strip().splitlines()
    assert len(lines) == 1, r.output
    assert "--lang 'fr'" in lines[0] and "en, da, sv, no" in lines[0]
    assert "Traceback" not in r.output


def _a_trail(seed: int) -> str:
    """A card seat 0 may trail at its first decision (it leads at this seed)."""
    t = Table.create(registry.get("kasino"), 2, seed, {}, players=["human", "random"])
    assert t.to_act == 0
    return next(a.split()[0] for a in t.legal_texts() if a.endswith(" trail"))


def test_a_danish_player_at_the_keyboard_sees_danish_and_types_the_engines_notation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    card = _a_trail(1)
    r = runner.invoke(
        app,
        ["play", "kasino", "--bots", "human,random", "--seed", "1", "--lang", "da"],
        input=f"udsmid\n99\n{card} trail\nq\n",
        env={"COLUMNS": "100", "LINES": "40"},
    )
    assert r.exit_code == 0, r.output
    out = r.output
    assert f"Udsmid {card_text(card)}" in out  # the Danish label, the notation beside it
    assert f"{card} trail" in out
    assert "(indsnævret efter 'udsmid'" in out  # narrowed by the shown (Danish) label
    assert "intet valg 99" in out
    assert f"Plads 0 udsmider {card_text(card)}" in out  # the event line, in Danish
    assert "plads 0 — din tur" in out
    assert "Bordet" in out and "giver" in out  # the board's words
    assert "spillet er ikke færdigt" in out and "fortsæt det med" in out
    for english in ("trails", "no option", "narrowed by", "dealer", "game left unfinished"):
        assert english not in out, english
    assert "Traceback" not in out


def test_a_swedish_replay_and_its_board(tmp_path: Path) -> None:
    rec = tmp_path / "g.json"
    r = runner.invoke(app, ["play", "kasino", "--bots", "random,greedy", "--seed", "7", "--save", str(rec)])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["replay", str(rec), "--to", "5", "--lang", "sv"], env={"COLUMNS": "100"})
    assert r.exit_code == 0, r.output
    assert re.search(r"efter 5/96 drag — plats \d: \S+ tar .* \(\S+ take .*\)", r.output)  # label (notation)
    assert "givare" in r.output and "talong" in r.output
    assert "slutresultat" in r.output and "Poäng totalt" in r.output


@pytest.mark.parametrize("lang", ["da", "sv", "no"])
@pytest.mark.parametrize("game_id", GAMES)
def test_the_screen_fits_in_every_language(game_id: str, lang: str) -> None:
    """As test_terminal's fit test, in the other languages: the board's words are longer."""
    g = registry.get(game_id)
    gt = GameText(game_id, lang)
    moves = [f"plads 1 gør træk nummer {k}" for k in range(30)]
    for s in _busiest(game_id):
        seat = s.to_act
        board = render_view(g, s.view(seat), seat, lang)
        for width, rows in SIZES:
            picker = Picker.of(s.legal(), gt.action_label, lang)
            shown = screen(board, moves, picker, None, width, rows, lang)
            out = _lines(shown, width, rows)
            assert len(out) + 1 <= rows, (game_id, width, rows, len(out))
            assert max(len(line) for line in out) <= width
            assert out[0] == _lines(board, width, rows)[0]
            assert any("nummer 29" in line for line in out)
            # the moves that did not fit are counted in the language too
            assert not any("earlier" in line for line in out)
            assert any(say(lang, "earlier", n="") in line or "(+" in line for line in out)


# The English words and phrases the terminal boards print (checked whole-word, case-sensitive)
ENGLISH_BOARD_WORDS = [
    "round", "Round", "seat", "Seat", "dealer", "Dealer", "hand", "Hand", "Hands", "Your hand", "stock",
    "Table", "target", "phase", "turn", "you", "points", "Game over", "game over", "to act", "Cards",
    "Offer", "Draft", "ships", "Ships", "cash", "Cash", "wealth", "Wealth", "markers", "crowned", "pile",
    "supply", "shows", "deck", "Doors", "Winner", "Fight", "committed", "available", "hits", "Stones",
    "Cat", "Played", "deals", "start circles", "Known below", "dice", "M-points", "buy", "matched",
    "setter", "this round", "last round", "pending", "laid", "empty", "Build", "build", "aces", "sweeps",
    "casino", "Grade", "spectator", "wins", "Map", "Lanes", "market", "race", "privateers", "Truces",
    "Home", "Reefs", "Depots", "Fortresses", "steps", "left", "open", "shut", "closed", "nothing",
    "moving", "partner", "giving", "gave", "received", "the", "of", "and", "with",
]  # fmt: skip


@pytest.mark.parametrize("game_id", GAMES)
def test_a_danish_board_shows_no_english_words(game_id: str) -> None:
    """Every game's terminal picture in Danish, at positions of seeded random games, seen by
    the seat to act and by a spectator, narrow and wide: none of the English board words."""
    from spillebord.testing import random_walk

    g = registry.get(game_id)
    found: dict[str, str] = {}
    for seats in sorted({g.seats.start, g.seats.stop - 1}):
        walk = random_walk(g, seats, 1, dict(g.quick_options), check=False, steps=300)
        for i, s in enumerate(walk):
            if i % 11 and s.to_act is not None:
                continue
            for seat in (s.to_act, None):
                for width in (80, 130):
                    text = "\n".join(_lines(render_view(g, s.view(seat), seat, "da"), width, 200))
                    for word in ENGLISH_BOARD_WORDS:
                        m = re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text)
                        if m:
                            found.setdefault(word, text[text.rfind("\n", 0, m.start()) + 1 :].split("\n")[0])
    assert not found, found


def test_a_danish_review_and_the_options_in_swedish(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    rec = tmp_path / "toy.json"
    r = runner.invoke(app, ["play", "toy", "--bots", "random,random", "--seed", "2", "--save", str(rec)])
    assert r.exit_code == 0, r.output
    r = runner.invoke(
        app,
        ["review", str(rec), "--budget", "20it", "--samples", "2", "--lang", "da"],
        env={"COLUMNS": "200"},
    )
    assert r.exit_code == 0, r.output
    assert "gennemgang af randoms beslutninger (20it pr. beslutning)" in " ".join(r.output.split())
    assert "spillet" in r.output and "tab" in r.output
    assert re.search(r"Bommerter \d+, fejl \d+, unøjagtigheder \d+ i \d+ beslutninger\.", r.output)
    r = runner.invoke(app, ["games", "kasino", "--lang", "sv"], env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    assert "2–4 spelare" in r.output and "betydelse" in r.output
    assert "D1: kort med två värden" in r.output  # the rule, as the web's table form says it
    assert "Robotar: random, greedy, ismcts; den starkaste: greedy." in r.output
    levels = "Nivåer: Nybörjare · Hobbyspelare (greedy) · Klubbspelare (greedy) · Expert (sökning, 450"
    assert levels in r.output


def test_the_levels_by_their_danish_names() -> None:
    r = runner.invoke(app, ["play", "toy", "--bots", "club,MASTER", "--seed", "2", "--lang", "da"])
    assert r.exit_code == 0, r.output
    assert "0=Klubspiller (level3), 1=Mester (level5)" in r.output  # as the web names them
