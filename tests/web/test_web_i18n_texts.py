"""The web client's game texts in English, Danish, Swedish and Norwegian, checked without a
browser: every option of every game has a label and a help text (the rule it sets) in all four
languages, and Partners' and Fuldrigger's action labels have templates for every action class
they have, naming only fields of that action's JSON (rare kinds included: an example of each
class is built here, where random play would need an option or a lost attack to meet one)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from spillebord.core import Action, registry
from spillebord.core.options import schema
from spillebord.games.fuldrigger import actions as fa
from spillebord.games.partners import actions as pa
from spillebord.games.partners.data import CARD_TYPES
from spillebord.server.extras import game_texts

LANGS = ("en", "da", "sv", "no")
GAMES = [g for g in registry.all_games() if type(g).__module__.startswith("spillebord.games.")]
FIELD = re.compile(r"\{([A-Za-z_0-9,]+)(?:\|([a-z]+)(?::([a-z_]+))?)?\}")


def in_all_languages(entry: Any) -> bool:
    return isinstance(entry, dict) and all(isinstance(entry.get(k), str) and entry[k].strip() for k in LANGS)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_option_has_a_label_and_help_in_every_language(game: Any) -> None:
    texts = game_texts(game.id)
    names = [o["name"] for o in schema(game.Options)]
    no_label = [n for n in names if not in_all_languages(texts.get("options", {}).get(n))]
    no_help = [n for n in names if not in_all_languages(texts.get("option_help", {}).get(n))]
    assert not no_label, f"{game.id}: options without a label in all four languages: {no_label}"
    assert not no_help, f"{game.id}: options without a help text in all four languages: {no_help}"
    # Help for options that exist only (a renamed option leaves no stale text behind).
    assert set(texts.get("option_help", {})) <= set(names), game.id
    for n in names:
        h = texts["option_help"][n]
        # a translation, not a copy of the English (rule numbers and codes may stay alike)
        assert all(h[lang] != h["en"] for lang in ("da", "sv", "no")), (game.id, n)


def fuldrigger_examples() -> list[Action]:
    values: dict[str, Any] = {"ship": "s1", "to": "KAN1", "city": "CAN", "reef": "A", "good": "Ka"}
    values |= {"defender": 1, "square": "AZOR", "unit": "fort", "what": "cash", "value": "30"}
    values |= {"rounds": 3, "offer": 2}
    out: list[Action] = []
    for c in vars(fa).values():
        if isinstance(c, type) and issubclass(c, fa.FuldriggerAction) and c.verb:
            args = [values[n] if n != "to" or c.verb != "offer" else 1 for n in c.arg_names]
            out.append(c(*args))
    return out


def partners_examples() -> list[Action]:
    return [
        pa.Give("A114"),
        pa.Start("HEART", 0),
        pa.Move("N5", 5, 0, 3, 8),
        pa.Move("M4", -4, 1, 10, 6),
        pa.Seven(2, 4, 3, 7),
        pa.StopSplit(),
        pa.Swap(0, 5, 1, 9),
        pa.Discard(),
    ]


@pytest.mark.parametrize(
    ("game_id", "examples"), [("fuldrigger", fuldrigger_examples), ("partners", partners_examples)]
)
def test_every_action_class_has_a_label_template_in_every_language(game_id: str, examples: Any) -> None:
    texts = game_texts(game_id)
    templates, terms = texts["actions"], texts.get("terms", {})
    kinds = set()
    for a in examples():
        j = a.to_json()
        kinds.add(j["kind"])
        tpl = templates.get(j["kind"])
        assert in_all_languages(tpl), f"{game_id}: no label template for {j['kind']!r}"
        for lang in LANGS:
            fields = FIELD.findall(tpl[lang])
            assert sorted(fields) == sorted(FIELD.findall(tpl["en"])), (game_id, j["kind"], lang)
            for field, flt, group in fields:
                assert any(f in j for f in field.split(",")), (
                    f"{game_id} {j['kind']} ({lang}): no {field!r} in {j}"
                )
                if flt == "t":
                    assert group in terms, (game_id, group)
    assert set(templates) == kinds, (
        f"{game_id}: templates for kinds it does not have: {set(templates) - kinds}"
    )


def test_the_terms_action_labels_look_up_are_all_there() -> None:
    fd, pt = game_texts("fuldrigger")["terms"], game_texts("partners")["terms"]
    from spillebord.games.fuldrigger import data as D

    for code in D.PORTS:
        assert in_all_languages(fd["port"].get(code)), code
    for good in D.GOODS:
        assert in_all_languages(fd["good"].get(good)), good
    for what in ("cash", "fort", "ship", "load"):
        assert in_all_languages(fd["clause"].get(what)), what
    for card in CARD_TYPES:
        assert in_all_languages(pt["card"].get(card)), card


def random_play_actions(game: Any, seeds: int = 6) -> dict[str, Action]:
    """One legal action of each kind met in random games of 2 and 4 seats (where the game
    seats 4): the first whose label is a human text, not its notation."""
    from spillebord.core import Rng
    from spillebord.core.options import build

    met: dict[str, Action] = {}
    for seed in range(seeds):
        for n in sorted({game.seats.start, min(game.seats.stop - 1, 4)}):
            state = game.new(n, seed, build(game.Options, {}))
            rng = Rng(seed)
            for _ in range(4000):
                if state.to_act is None:
                    break
                for a in state.legal():
                    kind = a.to_json()["kind"]
                    if kind not in met or (a.label() != str(a) and met[kind].label() == str(met[kind])):
                        met[kind] = a
                state.play(rng.choice(state.legal()))
    return met


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_action_written_for_people_has_a_template_in_every_language(game: Any) -> None:
    # An action whose label is written for people ("Move to Trappan (TR)") is shown from the
    # game's template in the reader's language; without one a Danish page showed the English.
    texts = game_texts(game.id)
    templates, terms = texts.get("actions", {}), texts.get("terms", {})
    for kind, a in random_play_actions(game).items():
        if a.label() == str(a):
            continue  # its notation is its label (cards and cells), the same in every language
        tpl = templates.get(kind)
        assert in_all_languages(tpl), f"{game.id}: {kind!r} ({a.label()!r}) has no template in all languages"
        j = a.to_json()
        for lang in LANGS:
            for field, flt, group in FIELD.findall(tpl[lang]):
                name = next((f for f in field.split(",") if f in j), None)
                assert name is not None, f"{game.id} {kind} ({lang}): no {field!r} in {j}"
                if flt in ("t", "ts"):
                    values = j[name] if flt == "ts" else [j[name]]
                    for v in values:
                        assert in_all_languages(terms.get(group, {}).get(str(v))), (game.id, kind, group, v)
