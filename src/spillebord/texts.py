"""The texts a game ships beside its engine (``games/<id>/texts.json``): event templates,
action-label templates, option labels, end-summary rows, board words (``ui``) and terms in
English, Danish, Swedish and Norwegian.

The web client fills them in the browser (``web/gametext.js``); the terminal fills them here,
with :func:`fill`, the Python twin of gametext.js's ``fill`` (a parity test runs both on the
same templates and data). :class:`GameText` binds one game and language: event lines, action
labels, summary rows and board words, falling back to English and then to the engine's own
text. The terminal keeps the engine's English texts when it speaks English (its output has
always been those), and takes the templates in the other three languages.

Templates: ``"{seat|p} trails {card|c}"``. Filters: p a seat's name, ps a list of seats'
names, s a per-seat list as "name value", c a card, cs cards, b a build (by its card),
t:GROUP a value from the game's terms, ts:GROUP a list of them. ``"{a,b|…}"`` takes the first
field present.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from spillebord.core import registry

LANGS = ("en", "da", "sv", "no")
"""The languages every game text is written in (English first: the fallback)."""

Namer = Callable[[Any], str]
"""How a seat number becomes a name in a filled text."""


@lru_cache(maxsize=16)
def game_texts(game_id: str) -> dict[str, Any]:
    """The ``texts.json`` shipped in the game's package, or ``{}``."""
    import importlib.resources

    game = registry.get(game_id)
    pkg = type(game).__module__.rsplit(".", 1)[0]
    try:
        res = importlib.resources.files(pkg) / "texts.json"
        text = res.read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError, TypeError):
        return {}
    data = json.loads(text)
    return data if isinstance(data, dict) else {}


def summary_label(game_id: str, key: str, lang: str = "en") -> str:
    """What an end-summary row is called (``best_series`` → "Longest series"), else its key
    in words."""
    entry = game_texts(game_id).get("summary", {}).get(key)
    if isinstance(entry, dict) and isinstance(entry.get(lang), str):
        return str(entry[lang])
    return key.replace("_", " ")


def lang_from_env(environ: Mapping[str, str] | None = None) -> str:
    """The language the locale asks for, as the first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG``
    that is set says it: ``da_DK.UTF-8`` → da, ``sv_*`` → sv, ``nb_*``/``nn_*``/``no_*`` → no,
    anything else (``C``, ``en_GB``, unset) → en."""
    env = os.environ if environ is None else environ
    value = next((env[k] for k in ("LC_ALL", "LC_MESSAGES", "LANG") if env.get(k)), "")
    code = re.split(r"[_.@-]", value, maxsplit=1)[0].lower()
    return {"da": "da", "sv": "sv", "nb": "no", "nn": "no", "no": "no"}.get(code, "en")


# ---------------------------------------------------------------------------- template filling
# Each helper below mirrors one in gametext.js; where JavaScript's String() and Python's str()
# differ (null, true, 2.0, arrays), js_str writes what the browser would.

_FIELD = re.compile(r"\{([A-Za-z_0-9,]+)(?:\|([a-z]+)(?::([a-z_]+))?)?\}")
_CARD = re.compile(r"^(10|[2-9AJQKT])([SHDC])[ab]?$")
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def js_str(value: Any) -> str:
    """``String(value)`` as JavaScript writes it for JSON data."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isfinite(value) and value.is_integer() and abs(value) < 1e21:
            return str(int(value))
        return repr(value)
    if isinstance(value, list | tuple):
        return ",".join("" if v is None else js_str(v) for v in value)
    if isinstance(value, dict):
        return "[object Object]"
    return str(value)


def pick(entry: Any, lang: str) -> str | None:
    """An entry's text in ``lang``, else in English, else None (gametext.js ``pick``)."""
    if not isinstance(entry, dict):
        return None
    text = entry.get(lang)
    if text is None:
        text = entry.get("en")
    return text if isinstance(text, str) else None


def card_text(cid: Any) -> str:
    """``10D`` → ``10♦``, ``JSa`` → ``J♠``; anything else as it is."""
    m = _CARD.match(js_str(cid))
    if not m:
        return js_str(cid)
    return f"{'10' if m[1] == 'T' else m[1]}{SUITS[m[2]]}"


def _list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else [] if value is None else [value]


def default_name(seat: Any) -> str:
    """gametext.js's namer before a page sets one."""
    return f"#{js_str(seat)}"


def fill(
    template: str,
    data: Mapping[str, Any],
    lang: str = "en",
    terms: Mapping[str, Any] | None = None,
    name: Namer = default_name,
) -> str:
    """``template`` with each ``{field|filter}`` replaced from ``data`` (see the module's
    docstring); ``terms`` is the game's ``terms`` texts, ``name`` names a seat."""
    groups = terms or {}

    def term(group: str | None, value: Any) -> str:
        entry = (groups.get(group or "") or {}).get(js_str(value))
        text = pick(entry, lang)
        return js_str(value) if text is None else text

    def apply(value: Any, filt: str | None, group: str | None) -> str:
        if filt == "p":
            return name(value)
        if filt == "ps":
            return ", ".join(name(x) for x in _list(value))
        if filt == "s":
            return ", ".join(f"{name(i)} {js_str(x)}" for i, x in enumerate(_list(value)))
        if filt == "c":
            return card_text(value)
        if filt == "cs":
            return " ".join(card_text(x) for x in _list(value))
        if filt == "b":
            return card_text(re.sub(r"^B", "", js_str(value)))
        if filt == "t":
            return term(group, value)
        if filt == "ts":
            return ", ".join(term(group, x) for x in _list(value))
        if isinstance(value, list | tuple):
            return ", ".join("" if v is None else js_str(v) for v in value)
        return "—" if value is None else js_str(value)

    def one(m: re.Match[str]) -> str:
        key = next((f for f in m[1].split(",") if f in data), None)
        return apply(None if key is None else data[key], m[2], m[3])

    return _FIELD.sub(one, template)


class GameText:
    """One game's texts in one language, as the terminal shows them.

    In English the engine's own texts are kept (event ``text``, action labels, the renderer's
    words), so English output is what it always was; in Danish, Swedish and Norwegian the
    game's templates are filled, with English and then the engine's text as fallbacks."""

    def __init__(self, game_id: str, lang: str = "en", name: Namer | None = None) -> None:
        if lang not in LANGS:
            raise ValueError(f"unknown language {lang!r}: one of {', '.join(LANGS)}")
        self.game_id = game_id
        self.lang = lang
        self.texts = game_texts(game_id) if game_id in registry.ids() else {}
        self.name: Namer = name or self.seat

    @property
    def english(self) -> bool:
        return self.lang == "en"

    def seat(self, n: Any) -> str:
        """A seat as the board calls it: the game's ``ui`` "seat_name" or "seat" ("plads 0"),
        filled with ``n`` (from 0) and ``p`` (from 1)."""
        ui = self.texts.get("ui", {})
        tpl = pick(ui.get("seat_name"), self.lang) or pick(ui.get("seat"), self.lang) or "seat {n}"
        p = n + 1 if isinstance(n, int) and not isinstance(n, bool) else n
        return fill(tpl, {"n": n, "p": p}, self.lang)

    def fill(self, template: str, data: Mapping[str, Any]) -> str:
        return fill(template, data, self.lang, self.texts.get("terms"), self.name)

    def term(self, group: str, value: Any) -> str:
        return self.fill(f"{{v|t:{group}}}", {"v": value})

    def template(self, section: str, kind: Any) -> str | None:
        return pick(self.texts.get(section, {}).get(kind), self.lang)

    def event_line(self, event: Mapping[str, Any]) -> str | None:
        """An event as a line of the game's log: its template filled (a sentence: it starts
        with a capital), else its English text; None for an event without either."""
        text = event.get("text")
        tpl = None if self.english else self.template("events", event.get("kind"))
        if tpl is None:
            return str(text) if text else None
        line = self.fill(tpl, event)
        return line[:1].upper() + line[1:]

    def action_label(self, action: Any) -> str:
        """A legal action's label: its kind's template filled from its JSON, else the
        engine's label (an action without ``label()``: its text)."""
        label_fn = getattr(action, "label", None)
        english = label_fn() if callable(label_fn) else str(action)
        if self.english:
            return str(english)
        to_json = getattr(action, "to_json", None)
        data = to_json() if callable(to_json) else None
        if not isinstance(data, dict):
            return str(english)
        tpl = self.template("actions", data.get("kind"))
        return str(english) if tpl is None else self.fill(tpl, data)

    def summary(self, key: str) -> str:
        return summary_label(self.game_id, key, self.lang)

    def word(self, key: str, english: str, **data: Any) -> str:
        """A board word: ``english`` (the renderer's own) in English; else the game's ``ui``
        text for ``key`` in the language (English where it has none), filled from ``data``."""
        tpl = english if self.english else pick(self.texts.get("ui", {}).get(key), self.lang) or english
        return self.fill(tpl, data) if data else tpl


def game_text(game_id: str, lang: str = "en") -> GameText:
    """A renderer's way in: the game's texts in ``lang`` (cached)."""
    return _cached(game_id, lang)


@lru_cache(maxsize=64)
def _cached(game_id: str, lang: str) -> GameText:
    return GameText(game_id, lang)


__all__ = [
    "LANGS",
    "GameText",
    "card_text",
    "fill",
    "game_text",
    "game_texts",
    "js_str",
    "lang_from_env",
    "pick",
    "summary_label",
]
