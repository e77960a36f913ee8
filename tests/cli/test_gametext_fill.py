"""The Python twin of the web's template filling (``spillebord.texts.fill``, gametext.js's
``fill``): every event and action kind met in a few seeded random games of each game fills,
in every language, to a text with no ``{…}`` left; and the browser's own ``fill``, run under
node on the same templates and data, writes the same texts. Without node the parity test is
skipped on a developer's machine, and fails in CI (``CI`` set), where node must be there."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from spillebord.core import Rng, registry
from spillebord.testing import new_state
from spillebord.texts import LANGS, GameText, card_text, fill, game_texts, js_str, lang_from_env

GAMES = ["metscri", "88", "touche", "revir", "partners", "kasino", "fuldrigger"]
LEFTOVER = re.compile(r"\{[A-Za-z_0-9,]+(\|[a-z_:]+)?\}")
WEB = Path(__file__).resolve().parents[2] / "src" / "spillebord" / "web"


@cache
def met(game_id: str) -> tuple[dict[str, list[dict[str, Any]]], dict[str, list[dict[str, Any]]]]:
    """(events by kind, legal actions' JSON by kind) of seeded random games at the fewest and
    the most seats: up to three examples of each kind."""
    g = registry.get(game_id)
    events: dict[str, list[dict[str, Any]]] = {}
    actions: dict[str, list[dict[str, Any]]] = {}
    for seats in sorted({g.seats.start, g.seats.stop - 1}):
        for seed in (0, 1):
            state = new_state(g, seats, seed, dict(g.quick_options))
            rng = Rng(seed)
            for _ in range(600):
                if state.to_act is None:
                    break
                legal = state.legal()
                for a in legal[:40]:
                    j = a.to_json()
                    if len(actions.setdefault(j["kind"], [])) < 3:
                        actions[j["kind"]].append(j)
                for e in state.play(rng.choice(legal)):
                    if len(events.setdefault(e["kind"], [])) < 3:
                        events[e["kind"]].append(e)
    return events, actions


def seat_name(n: Any) -> str:
    return f"P{js_str(n)}"


def cases(game_id: str) -> list[tuple[str, str, dict[str, Any]]]:
    """(language, template, data) of every template of a kind met in play, each example."""
    texts = game_texts(game_id)
    events, actions = met(game_id)
    out = []
    for section, found in (("events", events), ("actions", actions)):
        for kind, examples in found.items():
            entry = texts.get(section, {}).get(kind)
            if not isinstance(entry, dict):
                continue
            for lang in LANGS:
                out += [(lang, entry[lang], data) for data in examples if lang in entry]
    return out


@pytest.mark.parametrize("game_id", GAMES)
def test_every_event_and_action_met_in_play_fills_in_every_language(game_id: str) -> None:
    events, actions = met(game_id)
    assert events and actions, game_id
    terms = game_texts(game_id).get("terms")
    for lang, template, data in cases(game_id):
        text = fill(template, data, lang, terms, seat_name)
        assert text.strip(), (game_id, lang, template)
        assert not LEFTOVER.search(text), (game_id, lang, template, text)
    for lang in LANGS:
        gt = GameText(game_id, lang)
        for kind, examples in events.items():
            for e in examples:
                line = gt.event_line(e)
                if line is not None:  # an event without a text or template shows nothing
                    assert not LEFTOVER.search(line), (game_id, lang, kind, line)
        g = registry.get(game_id)
        state = g.new(g.seats.start, 3, g.Options(**g.quick_options))
        for a in state.legal():
            label = gt.action_label(a)
            assert label and not LEFTOVER.search(label), (game_id, lang, label)


def test_english_keeps_the_engine_texts_and_other_languages_fill_the_templates() -> None:
    g = registry.get("kasino")
    state = g.new(2, 5, g.Options())
    a = next(x for x in state.legal() if str(x).endswith("trail"))
    card = str(a).split()[0]
    assert GameText("kasino", "en").action_label(a) == a.label()
    assert GameText("kasino", "da").action_label(a) == f"Udsmid {card_text(card)}"
    ev = state.copy().play(a)[0]
    assert GameText("kasino", "en").event_line(ev) == ev["text"]
    assert GameText("kasino", "da").event_line(ev) == f"Plads {state.to_act} udsmider {card_text(card)}"
    assert GameText("kasino", "sv").event_line(ev) == f"Plats {state.to_act} lägger ut {card_text(card)}"
    assert GameText("revir", "no").seat(1) == "P2"  # Revir's players are P1, P2 … on its board


def test_the_filters_and_the_first_present_field() -> None:
    terms = {"colour": {"0": {"en": "Yellow", "da": "Gul"}}}
    data = {"seat": 1, "cards": ["TD", "JSa"], "b": "B9H", "s": [3, 4], "c": 0, "xs": [0, 0], "none": None}
    tpl = "{seat|p}: {cards|cs} {b|b} {s|s} {c|t:colour} {xs|ts:colour} {missing,seat} {none} {missing}"
    assert fill(tpl, data, "da", terms, seat_name) == "P1: 10♦ J♠ 9♥ P0 3, P1 4 Gul Gul, Gul 1 — —"
    assert fill("{c|t:colour}", {"c": 0}, "sv", terms) == "Yellow"  # no Swedish: English
    assert fill("{x}", {"x": 2.0}) == "2" and fill("{x}", {"x": True}) == "true"


@pytest.mark.parametrize(
    ("env", "lang"),
    [
        ({"LANG": "da_DK.UTF-8"}, "da"),
        ({"LANG": "sv_SE.UTF-8"}, "sv"),
        ({"LANG": "nb_NO.UTF-8"}, "no"),
        ({"LANG": "nn_NO"}, "no"),
        ({"LANG": "no_NO"}, "no"),
        ({"LANG": "en_GB.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({}, "en"),
        ({"LC_ALL": "C", "LANG": "da_DK.UTF-8"}, "en"),  # LC_ALL wins
        ({"LC_MESSAGES": "sv_SE", "LANG": "da_DK.UTF-8"}, "sv"),
        ({"LC_ALL": "", "LANG": "da_DK.UTF-8"}, "da"),  # an empty variable counts as unset
    ],
)
def test_the_language_from_the_locale(env: dict[str, str], lang: str) -> None:
    assert lang_from_env(env) == lang


NODE_FILL = r"""
import { readFileSync } from "node:fs";
let LANG = "en";
globalThis.localStorage = { getItem: () => LANG };
globalThis.navigator = { language: "en" };
const { fill, setTexts, setNamer } = await import(process.argv[2]);
const input = JSON.parse(readFileSync(0, "utf-8"));
setNamer((i) => `P${i}`);
const out = [];
for (const [terms, lang, template, data] of input) {
  LANG = lang;
  setTexts({ terms });
  out.push(fill(template, data));
}
process.stdout.write(JSON.stringify(out));
"""


def test_python_fill_writes_what_gametext_js_writes(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("node is missing: CI must run the parity test of gametext.js and texts.fill")
        pytest.skip("node is not installed (the parity test runs in CI)")
    # the browser modules as ES modules node loads without a package.json
    for name in ("gametext", "i18n"):
        src = (WEB / f"{name}.js").read_text(encoding="utf-8").replace('"./i18n.js"', '"./i18n.mjs"')
        (tmp_path / f"{name}.mjs").write_text(src, encoding="utf-8")
    (tmp_path / "run.mjs").write_text(NODE_FILL, encoding="utf-8")
    rows = []
    for game_id in GAMES:
        terms = game_texts(game_id).get("terms", {})
        rows += [(terms, lang, tpl, data) for lang, tpl, data in cases(game_id)]
    assert len(rows) > 500
    done = subprocess.run(
        [node, str(tmp_path / "run.mjs"), (tmp_path / "gametext.mjs").as_uri()],
        input=json.dumps(rows),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    theirs = json.loads(done.stdout)
    ours = [fill(tpl, data, lang, terms, seat_name) for terms, lang, tpl, data in rows]
    differ = [(r[1], r[2], o, t) for r, o, t in zip(rows, ours, theirs, strict=True) if o != t]
    assert not differ, differ[:5]
