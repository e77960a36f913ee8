"""Every game speaks English, Danish, Swedish and Norwegian in the web client: each event kind
it can emit, each of its options and end-summary rows has a text in all four
(``games/<id>/texts.json``), and each template names only fields its events carry."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from spillebord.ai import decide, make_agent
from spillebord.core import Rng, registry
from spillebord.core.options import schema
from spillebord.core.summary import summary_of
from spillebord.server.extras import game_texts

LANGS = ("en", "da", "sv", "no")
GAMES = [g for g in registry.all_games() if type(g).__module__.startswith("spillebord.games.")]
FILTERS = {"p", "ps", "s", "c", "cs", "b", "t", "ts"}
KIND = re.compile(r'"kind":\s*"([a-z_0-9]+)"|_ev\(\s*"([a-z_0-9]+)"')
FIELD = re.compile(r"\{([A-Za-z_0-9,]+)(?:\|([a-z]+)(?::([a-z_]+))?)?\}")
"""``{field|filter:group}``; ``{a,b|…}`` takes the first of the fields an event has."""


def package_dir(game: Any) -> Path:
    import importlib

    return Path(importlib.import_module(type(game).__module__).__file__ or "").parent


def emitted_kinds(game: Any) -> set[str]:
    """Event kinds named in the rules' source (events are built there)."""
    kinds = set()
    for m in KIND.finditer((package_dir(game) / "rules.py").read_text(encoding="utf-8")):
        kinds.add(next(x for x in m.groups() if x))
    return kinds


def played_events(game: Any) -> dict[str, list[dict[str, Any]]]:
    """Events of a few random and greedy games at the smallest and largest table."""
    out: dict[str, list[dict[str, Any]]] = {}
    for seats in sorted({game.seats.start, game.seats.stop - 1}):
        for seed in range(2):
            state = game.new(seats=seats, seed=seed, options=game.Options(**game.quick_options))
            rng = Rng(seed)
            bot = make_agent("greedy" if seed else "random", game)
            n = 0
            while state.to_act is not None and n < 3000:
                for e in state.play(decide(bot, state, rng)):
                    out.setdefault(e["kind"], []).append(e)
                n += 1
    return out


def in_all_languages(entry: Any) -> bool:
    return isinstance(entry, dict) and all(isinstance(entry.get(k), str) and entry[k] for k in LANGS)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_event_kind_has_a_template_in_every_language(game: Any) -> None:
    texts = game_texts(game.id)
    events = played_events(game)
    kinds = emitted_kinds(game) | set(events)
    missing = sorted(k for k in kinds if not in_all_languages(texts.get("events", {}).get(k)))
    assert not missing, f"{game.id}: no template in all four languages for {missing}"
    for kind, tpl in texts["events"].items():
        for lang in LANGS:
            for field, flt, group in FIELD.findall(tpl[lang]):
                assert not flt or flt in FILTERS, f"{game.id} {kind}: unknown filter {flt!r}"
                if flt in ("t", "ts"):
                    assert group in texts.get("terms", {}), f"{game.id} {kind}: no terms {group!r}"
                for e in events.get(kind, []):
                    has = any(f in e for f in field.split(","))
                    assert has, f"{game.id} {kind} ({lang}): no {field!r} in {e}"
            # Every language names the same fields (a translation drops nothing).
            assert sorted(FIELD.findall(tpl[lang])) == sorted(FIELD.findall(tpl["en"])), (game.id, kind, lang)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_option_and_summary_row_has_a_label_in_every_language(game: Any) -> None:
    texts = game_texts(game.id)
    for o in schema(game.Options):
        assert in_all_languages(texts.get("options", {}).get(o["name"])), f"{game.id}: option {o['name']}"
    state = game.new(seats=game.seats.start, seed=1, options=game.Options(**game.quick_options))
    rng = Rng(1)
    bot = make_agent("random", game)
    while state.to_act is not None:
        state.play(decide(bot, state, rng))
    s = summary_of(state)
    assert s is not None
    for r in s["rows"]:
        assert in_all_languages(texts.get("summary", {}).get(r["key"])), f"{game.id}: summary row {r['key']}"


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_terms_used_by_events_are_translated(game: Any) -> None:
    """A value looked up in the terms (a colour, an option, a pattern) has an entry there."""
    texts = game_texts(game.id)
    for kind, evs in played_events(game).items():
        tpl = texts["events"][kind]["en"]
        for field, flt, group in FIELD.findall(tpl):
            if flt not in ("t", "ts"):
                continue
            terms = texts["terms"][group]
            for e in evs:
                value = next(e[f] for f in field.split(",") if f in e)
                vals = value if flt == "ts" else [value]
                for v in vals:
                    assert in_all_languages(terms.get(str(v))), f"{game.id} {kind}: term {group}.{v}"


RARE_ACTIONS = {
    "fuldrigger": {"collect", "lose", "portage", "seize", "sell"},
    "partners": {"seven_stop"},
    "touche": {"grade"},
    "metscri": {"collect", "invest"},
}
"""Action kinds random play does not reach in 40 games of the quick options (an option's
variant: the isthmus, ``split_must_use_all=false``; a lost or won attack; a sale among endless
offers; Touché's grade, which the quick options fix; a Metscri group or buy, rare in random play):
Fuldrigger's and Partners' templates are checked on an example of every action class, and
every game's on the actions of random games of the default options, in
tests/web/test_web_i18n_texts.py."""


@pytest.mark.parametrize("game", [g for g in GAMES if game_texts(g.id).get("actions")], ids=lambda g: g.id)
def test_action_templates_name_only_fields_of_their_actions(game: Any) -> None:
    """An action label template (where a game has them) uses fields its actions' JSON carries,
    in all four languages."""
    texts = game_texts(game.id)
    templates = texts.get("actions", {})
    assert templates
    seen: dict[str, list[dict[str, Any]]] = {}
    for seed in range(40):  # until every templated kind was legal somewhere (rare ones take a while)
        if set(templates) <= set(seen):
            break
        state = game.new(seats=game.seats.start, seed=seed, options=game.Options(**game.quick_options))
        rng = Rng(seed)
        bot = make_agent("random", game)
        n = 0
        while state.to_act is not None and n < 1500:
            for a in state.legal():
                j = a.to_json()
                seen.setdefault(j["kind"], []).append(j)
            state.play(decide(bot, state, rng))
            n += 1
    for kind, tpl in templates.items():
        assert in_all_languages(tpl), f"{game.id} action {kind}"
        if kind not in seen and kind in RARE_ACTIONS.get(game.id, ()):
            continue
        assert kind in seen, f"{game.id}: no action of kind {kind!r} was legal in 40 games"
        for lang in LANGS:
            for field, flt, _group in FIELD.findall(tpl[lang]):
                assert not flt or flt in FILTERS
                for j in seen[kind][:50]:
                    has = any(f in j for f in field.split(","))
                    assert has, f"{game.id} {kind} ({lang}): no {field!r} in {j}"
