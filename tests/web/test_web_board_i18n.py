"""The board in the reader's language (issue 17: "the Danish page shows no English game text"):
every game's board drawing takes its words from the game's texts (games/<id>/texts.json "ui"),
so a Danish page, after a few moves, shows none of the English words the renderers used to
print; likewise a Swedish page for one game. axe-core finds nothing serious on a Danish board."""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Collection
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_web_games import GAMES, create_from_lobby
from test_web_layout import serious_violations

# English words and phrases the board renderers printed before they were translated. Checked
# as whole words, case-sensitive (a Danish or Swedish word that merely contains one is fine).
ENGLISH = [
    "hand", "Your hand", "gave", "giving", "received", "played", "deck", "cards", "Players", "players",
    "cash", "wealth", "ships", "Ships", "supply", "price", "good", "Trade", "Chance cards",
    "No card in force", "No ship", "Offers", "trade war", "Round", "round", "turn", "turn of", "phase",
    "game over", "squares", "fortress", "dealer", "in the house", "won", "deals", "spectating", "pile",
    "discards", "crowned", "colour", "target", "grade", "points", "left", "free space", "Choose",
    "click", "stones", "bank", "series", "of one colour", "open", "shut", "Card clock", "house", "barn",
    "doors", "rat tracks", "player", "attacker", "defender", "setter", "peg track", "points game",
    "discard", "Target number", "straight piece", "laid", "not laid yet", "stock", "wins", "lowest",
    "action points", "buy pile", "matched", "roll", "seat", "you", "Table", "sweep", "must capture",
    "build", "split", "back", "swap", "home", "banker", "load", "ship",
]  # fmt: skip
# Words a Swedish page may show although they are English too.
SWEDISH_TOO = {"hand", "bank"}

# Fuldrigger: offers (da, sv) are many small decisions; the test stays out of them.
OFFERS = (
    "Skriv et tilbud",
    "Tilbyd",
    "Bed om",
    "Våbenhvile",
    "Skriv ett anbud",
    "Erbjud",
    "Be om",
    "Vapenvila",
)
WORD = "(?<![\\w-]){}(?![\\w-])"


def english_on(text: str, skip: Collection[str] = ()) -> list[str]:
    return sorted({w for w in ENGLISH if w not in skip and re.search(WORD.format(re.escape(w)), text)})


def page_in(browser: Any, lang: str, locale: str) -> Any:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale=locale, bypass_csp=True)
    ctx.add_init_script(f"localStorage.setItem('sb:lang', '{lang}')")
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.js_errors = errors
    return pg


def board_texts(page: Any, server_url: str, game_id: str, moves: int, seed: int) -> list[str]:
    """The board's visible text (and its SVG titles) after each of a few random moves of our seat."""
    create_from_lobby(page, server_url, game_id)
    rng = random.Random(seed)
    texts: list[str] = []
    for _ in range(moves):
        page.wait_for_function(
            "document.body.dataset.over === 'true' || document.body.dataset.myturn === 'true'", timeout=60_000
        )
        texts.append(page.inner_text("#board"))
        if page.evaluate("document.body.dataset.over") == "true":
            break
        shown = page.eval_on_selector_all("#actions .action", "els => els.map(e => e.textContent)")
        choices = [i for i, t in enumerate(shown) if not t.startswith(OFFERS)]
        seq = page.evaluate("document.body.dataset.seq")
        page.locator("#actions .action").nth(rng.choice(choices or list(range(len(shown))))).click()
        page.wait_for_function(f"document.body.dataset.seq !== '{seq}'", timeout=60_000)
    page.wait_for_function(
        "document.body.dataset.over === 'true' || document.body.dataset.myturn === 'true'", timeout=60_000
    )
    texts.append(page.inner_text("#board"))
    return texts


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_danish_board_shows_no_english_words(
    browser: Any, quick_server_url: str, artifacts: Path, game: Any
) -> None:
    page = page_in(browser, "da", "da-DK")
    try:
        texts = board_texts(page, quick_server_url, game.id, moves=2, seed=3)
        page.screenshot(path=str(artifacts / f"{game.id}-da-board.png"), full_page=True)
        assert texts and all(t.strip() for t in texts), "the board shows no text"
        found = {w: i for i, t in enumerate(texts) for w in english_on(t)}
        where = texts[max(found.values())] if found else ""
        assert not found, f"English words on the Danish {game.id} board: {sorted(found)}\n{where}"
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()


def test_swedish_board_of_fuldrigger_shows_no_english_words(browser: Any, quick_server_url: str) -> None:
    page = page_in(browser, "sv", "sv-SE")
    try:
        texts = board_texts(page, quick_server_url, "fuldrigger", moves=2, seed=5)
        found = sorted({w for t in texts for w in english_on(t, SWEDISH_TOO)})
        assert not found, f"English words on the Swedish Fuldrigger board: {found}\n{texts[-1]}"
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()


def test_danish_partners_board_is_axe_clean(browser: Any, server_url: str) -> None:
    page = page_in(browser, "da", "da-DK")
    try:
        create_from_lobby(page, server_url, "partners")
        page.wait_for_function("document.body.dataset.myturn === 'true'", timeout=60_000)
        assert not serious_violations(page)
    finally:
        page.context.close()


RENDER = Path(__file__).parents[2] / "src" / "spillebord" / "web" / "render"
UI_CALL = re.compile(r'\buif?\("([A-Za-z_0-9]+)", "((?:[^"\\]|\\.)*)"')
FIELDS = re.compile(r"\{([A-Za-z_0-9,]+)(?:\|[a-z]+(?::[a-z_]+)?)?\}")
RENDERERS = {
    "kasino": "kasino",
    "metscri": "metscri",
    "88": "eightyeight",
    "touche": "touche",
    "revir": "revir",
}
RENDERERS |= {"partners": "partners", "fuldrigger": "fuldrigger"}


@pytest.mark.parametrize("game_id", sorted(RENDERERS))
def test_every_board_text_has_all_four_languages(game_id: str) -> None:
    """Each ui("key", "English") of a renderer has the key in its game's texts, in en/da/sv/no,
    the same English as the renderer's fallback, and the same {fields} in every language."""
    from spillebord.server.extras import game_texts

    ui = game_texts(game_id).get("ui", {})
    source = (RENDER / f"{RENDERERS[game_id]}.js").read_text(encoding="utf-8")
    calls = UI_CALL.findall(source)
    assert calls, game_id
    for key, english in calls:
        entry = ui.get(key)
        assert isinstance(entry, dict), f"{game_id}: no ui text {key!r}"
        assert all(isinstance(entry.get(x), str) and entry[x] for x in ("en", "da", "sv", "no")), (
            game_id,
            key,
        )
        assert entry["en"] == english.replace('\\"', '"'), (game_id, key)
        for lang in ("da", "sv", "no"):
            assert sorted(FIELDS.findall(entry[lang])) == sorted(FIELDS.findall(entry["en"])), (
                game_id,
                key,
                lang,
            )


def test_board_texts_named_by_the_engines_data_are_there() -> None:
    """Keys a renderer builds from the engine's data (a card code, a good, a hazard, a chance
    card, a Revir card's name): each one has its text, and a chance card's English is the engine's."""
    from spillebord.core import registry
    from spillebord.games.partners.data import CARD_TYPES
    from spillebord.server.extras import game_texts

    def has(game_id: str, key: str) -> bool:
        entry = game_texts(game_id).get("ui", {}).get(key)
        return isinstance(entry, dict) and all(entry.get(x) for x in ("en", "da", "sv", "no"))

    missing = [k for k in (f"card_{c}" for c in CARD_TYPES) if not has("partners", k)]
    missing += [c for c in ("yellow", "red", "blue", "green") if not has("partners", c)]
    board = registry.get("fuldrigger").board_data()
    keys = [f"good_{g}" for g in board["goods"]] + [f"hz_{h}" for h in board["hazard_da"]]
    keys += [f"chance_{n}" for n in board["cards"]]
    missing += [k for k in keys if not has("fuldrigger", k)]
    ui = game_texts("fuldrigger")["ui"]
    assert all(ui[f"chance_{n}"]["en"] == c[2] for n, c in board["cards"].items() if f"chance_{n}" in ui)
    revir = registry.get("revir")
    view = revir.new(seats=2, seed=1, options=revir.Options()).view(0)
    for card in view["board"]["cards"].values():
        keys = [f"card_{re.sub('[^a-z]+', '_', card['en'].lower())}", f"type_{card['type']}"]
        missing += [k for k in keys if not has("revir", k)]
    assert not missing, missing
