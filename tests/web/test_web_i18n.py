"""The reader's language in a real Chromium: the lobby's rule options (label and the rule as
help) and Partners' and Fuldrigger's action buttons in Danish, with no English game text."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_web_games import create_from_lobby

from spillebord.core import registry
from spillebord.core.options import schema
from spillebord.server.extras import game_texts

# English words of the engine's action labels (Partners, Fuldrigger) that a Danish page must not show.
ENGLISH_ACTIONS = [
    "Give ", "to your partner", "Lay down", "bring a", "piece", "forward", "back to", "Swap the", "stop here",
    "Choose ", "as home city", "Learn reef", "Sail ", "Stop this ship", "Buy ", "Sell ", "Throw", "overboard",
    "Build a fortress", "Fit out", "privateer", "End the turn", "Attack ", "Draft an offer", "Offer to give",
    "Ask for", "Truce", "Send the offer", "Tear up", "Accept offer", "Decline offer", "Withdraw offer",
    "No offers now", "Leave the offer", "Take ship", "Take the fortress",
]  # fmt: skip


@pytest.mark.parametrize("game_id", ["kasino", "fuldrigger", "partners", "touche"])
def test_lobby_options_in_danish_with_the_rule_as_help(danish: Any, server_url: str, game_id: str) -> None:
    page = danish
    page.goto(server_url + "/")
    page.click(f'.game[data-game="{game_id}"]')
    texts = game_texts(game_id)
    names = [o["name"] for o in schema(registry.get(game_id).Options)]
    first = names[0]
    want_label, want_help = texts["options"][first]["da"], texts["option_help"][first]["da"]
    page.wait_for_function(
        f"document.querySelector('.option[title=\"{first}\"] .help').textContent === {want_help!r}"
    )
    rows = page.eval_on_selector_all(
        "#options .option",
        "els => els.map(e => [e.title, ...['.opt-name', '.help'].map(c => e.querySelector(c).textContent)])",
    )
    assert rows[0][1] == want_label
    for name, label, help_ in rows:
        assert label == texts["options"][name]["da"], name
        assert help_ == texts["option_help"][name]["da"], name
    assert not page.js_errors, page.js_errors


LEVELS = {
    "en": ["Beginner", "Casual", "Club", "Expert", "Master"],
    "da": ["Begynder", "Hobbyspiller", "Klubspiller", "Ekspert", "Mester"],
}


@pytest.mark.parametrize("lang", ["en", "da"])
def test_the_lobby_offers_the_five_levels_by_name(page: Any, danish: Any, server_url: str, lang: str) -> None:
    # A level is a property of the seat, offered by what it is called ("Master Bo (bot)"),
    # not by its agent's name ("Level5 Bo").
    pg = page if lang == "en" else danish
    pg.goto(server_url + "/")
    pg.click('.game[data-game="kasino"]')
    offered = pg.eval_on_selector_all(
        'select[name="seat-1"] option', "els => els.map(e => [e.value, e.textContent])"
    )
    bot = "bot" if lang == "en" else "robot"
    by_value = dict(offered)
    for level, called in enumerate(LEVELS[lang], start=1):
        assert by_value[f"level{level}"] == f"{called} Bo ({bot})"
    assert not any("Level" in text for _, text in offered), offered
    assert not pg.js_errors, pg.js_errors


@pytest.mark.parametrize(
    ("lang", "want"),
    [
        (
            "en",
            "Levels: Beginner · Casual (Planner) · Club (Planner) · Expert (Gatherer)"
            " · Master (search, 100 iterations a move).",
        ),
        (
            "da",
            "Niveauer: Begynder · Hobbyspiller (Planlæggende) · Klubspiller (Planlæggende)"
            " · Ekspert (Samlende) · Mester (søgning, 100 iterationer pr. træk).",
        ),
    ],
)
def test_the_lobby_says_what_each_level_plays(
    page: Any, danish: Any, server_url: str, lang: str, want: str
) -> None:
    # At Metscri two levels are other bots than elsewhere; the line under the seats says so,
    # and changes with the game chosen (Kasino's Expert searches).
    pg = page if lang == "en" else danish
    pg.goto(server_url + "/")
    pg.click('.game[data-game="metscri"]')
    pg.wait_for_function(f"document.getElementById('levels-line').textContent === {want!r}")
    pg.click('.game[data-game="kasino"]')
    pg.wait_for_function("document.getElementById('levels-line').textContent.includes('450')")
    line = pg.text_content("#levels-line") or ""
    assert "Gatherer" not in line and "Samlende" not in line, line
    assert not pg.js_errors, pg.js_errors


def test_a_person_without_a_name_is_player_n_in_the_readers_language(danish: Any, server_url: str) -> None:
    page = danish
    page.goto(server_url + "/")
    page.click('.game[data-game="revir"]')
    page.fill("#name", "")
    page.select_option('select[name="seat-1"]', "level5")
    page.click("#create-btn")
    page.wait_for_url("**/table/**")
    page.wait_for_selector("body[data-seq]")
    page.wait_for_function("document.body.innerText.includes('Spiller 1 (dig)')")
    body = page.inner_text("body")
    assert "Mester Bo (robot)" in body
    assert "Player 1" not in body and "Level5" not in body
    assert not page.js_errors, page.js_errors


@pytest.mark.parametrize(("game_id", "moves"), [("partners", 12), ("fuldrigger", 25)])
def test_danish_action_labels_of_partners_and_fuldrigger(
    danish: Any, quick_server_url: str, artifacts: Path, game_id: str, moves: int
) -> None:
    page = danish
    create_from_lobby(page, quick_server_url, game_id)
    rng = random.Random(2)
    seen: set[str] = set()
    labels: set[str] = set()
    for _ in range(moves):
        page.wait_for_function(
            "document.body.dataset.over === 'true' || document.body.dataset.myturn === 'true'", timeout=60_000
        )
        if page.evaluate("document.body.dataset.over") == "true":
            break
        shown = page.eval_on_selector_all("#actions .action", "els => els.map(e => e.textContent)")
        labels |= set(shown)
        text = "\n".join(shown) + "\n" + page.inner_text("#log")
        seen |= {w for w in ENGLISH_ACTIONS if w in text}
        seq = page.evaluate("document.body.dataset.seq")
        buttons = page.locator("#actions .action")
        # Fuldrigger: stay out of endless offers (a draft is many small decisions)
        choices = [
            i for i, t in enumerate(shown) if not t.startswith(("Skriv et tilbud", "Tilbyd", "Bed om"))
        ]
        buttons.nth(rng.choice(choices or list(range(len(shown))))).click()
        page.wait_for_function(f"document.body.dataset.seq !== '{seq}'", timeout=60_000)
    page.screenshot(path=str(artifacts / f"{game_id}-da-actions.png"), full_page=True)
    if game_id == "partners":  # the partners bot is "Makker-" + persona: one word, "Makker-Bo"
        players = page.inner_text("#players")
        assert "Makker-Bo (robot)" in players and "Makker- " not in players, players
    assert labels, "no action buttons were shown"
    assert not seen, (
        f"English action labels on the Danish {game_id} page: {sorted(seen)}; labels: {sorted(labels)[:20]}"
    )
    assert not page.js_errors, page.js_errors
