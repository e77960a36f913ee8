"""Kasino actions: one card from the hand and one thing done with it (spec rule 5).

Table items in actions are coded as ints: a loose card is its card number (0..51), a build
is ``BUILD_CODE + its base card`` (its id in views and texts is ``"B" + base card id``,
e.g. ``"B7D"``: the table card it was first built on).

Canonical texts (all start with the hand card):

* ``9H trail`` — udsmide (6.1)
* ``9H take 3S+6D,2C+7D`` — tage stik: groups separated by ``,``, cards in a group by ``+``;
  a build is a group of its own, ``B7D`` (6.2)
* ``5S clear`` — spar 5 rydder bordet (7)
* ``2S build 9 on 7D`` — bygger ni; ``gather 4C+5H,9C`` adds equal groups (8.2); the
  same-value form "mere syv" is ``7S build 7 on 7D`` (8.3)
* ``AS raise B7D to 10`` — bygger videre (8.4)
* ``4C extend B7D with 5H`` / ``9C extend B7D`` — bygger mere (8.5), optionally ``gather …``
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from spillebord.core.game import Action  # the defining module: mypyc needs it for bases
from spillebord.core.mypyc import mypyc_attr

from .data import CARD_IDS, CARD_SYMBOLS, NUMBER_NAMES_DA

BUILD_CODE = 64


def item_id(code: int) -> str:
    return "B" + CARD_IDS[code - BUILD_CODE] if code >= BUILD_CODE else CARD_IDS[code]


def item_symbol(code: int) -> str:
    return "build on " + CARD_SYMBOLS[code - BUILD_CODE] if code >= BUILD_CODE else CARD_SYMBOLS[code]


# item code → id / symbol, precomputed (codes 0..51 and BUILD_CODE..BUILD_CODE+51)
_ITEM_IDS: dict[int, str] = {c: item_id(c) for r in (0, BUILD_CODE) for c in range(r, r + len(CARD_IDS))}
_ITEM_SYMBOLS: dict[int, str] = {
    c: item_symbol(c) for r in (0, BUILD_CODE) for c in range(r, r + len(CARD_IDS))
}


def groups_text(groups: tuple[tuple[int, ...], ...]) -> str:
    ids = _ITEM_IDS
    try:
        return ",".join(["+".join([ids[i] for i in g]) for g in groups])
    except KeyError:  # not a table item code: the general form (and its error)
        return ",".join("+".join(item_id(i) for i in g) for g in groups)


def groups_symbols(groups: tuple[tuple[int, ...], ...]) -> str:
    sym = _ITEM_SYMBOLS
    if len(groups) == 1 and len(groups[0]) == 1 and groups[0][0] in sym:  # one item (most captures)
        return sym[groups[0][0]]
    try:
        return ", ".join(["+".join([sym[i] for i in g]) for g in groups])
    except KeyError:  # not a table item code: the general form (and its error)
        return ", ".join("+".join(item_symbol(i) for i in g) for g in groups)


# Compiled (tools/compile.py), each action class stays a plain frozen dataclass: a native class
# could not inherit the interpreted Action here (the import fails), so the module's functions
# and the classes' methods are compiled and the classes, equality, hashing and pickling are
# Python's own, as without mypyc.
@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class CardAction(Action):
    """What every Kasino action has: the one hand card it plays (rule 5).

    ``to_json`` is derived: ``kind`` (the class name in lower case), ``card``, the fields of
    :meth:`_json` (what the action touches on the table), then the canonical ``text``.
    """

    card: int

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": type(self).__name__.lower(),
            "card": CARD_IDS[self.card],
            **self._json(),
            "text": str(self),
        }

    def _json(self) -> dict[str, Any]:
        return {}


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class _Alone(CardAction):
    """An action of the card alone: its text is the card and a verb."""

    verb: ClassVar[str]

    def __str__(self) -> str:
        return f"{CARD_IDS[self.card]} {self.verb}"

    def key(self) -> tuple[Any, ...]:
        return (self.verb, self.card)


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Trail(_Alone):
    """Trail (udsmide): lay the card face up on the table (6.1)."""

    verb: ClassVar[str] = "trail"

    def label(self) -> str:
        return f"trail {CARD_SYMBOLS[self.card]} (udsmide)"


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Capture(CardAction):
    """Capture (tage stik: matche / kombinere): take table items in groups each worth the
    card's value (6.2). ``groups`` is one partition proving the capture legal."""

    groups: tuple[tuple[int, ...], ...]

    def __str__(self) -> str:
        return f"{CARD_IDS[self.card]} take {groups_text(self.groups)}"

    def taken(self) -> frozenset[int]:
        return frozenset(i for g in self.groups for i in g)

    def _json(self) -> dict[str, Any]:
        return {
            "take": [item_id(i) for g in self.groups for i in g],
            "groups": [[item_id(i) for i in g] for g in self.groups],
        }

    def label(self) -> str:
        return f"{CARD_SYMBOLS[self.card]} takes {groups_symbols(self.groups)}"

    def key(self) -> tuple[Any, ...]:
        return ("capture", self.card, self.taken())


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Clear(_Alone):
    """Clear the table with ♠5 (spar 5 rydder bordet): take every item (7)."""

    verb: ClassVar[str] = "clear"

    def label(self) -> str:
        return f"{CARD_SYMBOLS[self.card]} clears the table (spar 5 rydder bordet)"


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Build(CardAction):
    """Create a build (bygger, 8.2) of ``value`` from the card and the loose cards ``base``;
    when the card alone is worth ``value`` and ``base`` is one card also worth it, this is
    the same-value form "mere syv" (8.3). ``gather``: further loose groups each worth
    ``value`` (8.2.4). ``multiple``: the resulting build is a multiple build."""

    value: int
    base: tuple[int, ...]
    gather: tuple[tuple[int, ...], ...] = ()
    same: bool = False

    def __str__(self) -> str:
        s = f"{CARD_IDS[self.card]} build {self.value} on {'+'.join(CARD_IDS[c] for c in self.base)}"
        return s + " gather " + groups_text(self.gather) if self.gather else s

    @property
    def multiple(self) -> bool:
        return self.same or bool(self.gather)

    def cards_used(self) -> frozenset[int]:
        return frozenset(self.base) | frozenset(i for g in self.gather for i in g)

    def _json(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "on": [CARD_IDS[c] for c in self.base],
            "gather": [[item_id(i) for i in g] for g in self.gather],
            "take": [CARD_IDS[c] for c in self.base] + [item_id(i) for g in self.gather for i in g],
        }

    def label(self) -> str:
        base = self.base
        on = CARD_SYMBOLS[base[0]] if len(base) == 1 else "+".join([CARD_SYMBOLS[c] for c in base])
        v = self.value
        s = (
            f"{CARD_SYMBOLS[self.card]} on {on}: build {v} "
            f"({'mere' if self.same else 'bygger'} {NUMBER_NAMES_DA.get(v) or str(v)})"
        )
        return s + f", gathering {groups_symbols(self.gather)}" if self.gather else s

    def key(self) -> tuple[Any, ...]:
        return ("build", self.card, self.value, self.cards_used(), self.multiple)


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Raise(CardAction):
    """Raise a simple build (bygger videre) to ``value`` with the card (8.4)."""

    build: int
    value: int

    def __str__(self) -> str:
        return f"{CARD_IDS[self.card]} raise B{CARD_IDS[self.build]} to {self.value}"

    def _json(self) -> dict[str, Any]:
        return {
            "build": "B" + CARD_IDS[self.build],
            "value": self.value,
            "take": ["B" + CARD_IDS[self.build]],
        }

    def label(self) -> str:
        return (
            f"{CARD_SYMBOLS[self.card]} on the build on {CARD_SYMBOLS[self.build]}: "
            f"raise to {self.value} (bygger videre)"
        )

    def key(self) -> tuple[Any, ...]:
        return ("raise", self.card, self.build, self.value)


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Extend(CardAction):
    """Extend a build with a new group of its value (bygger mere, 8.5): the card alone or
    the card with the loose cards ``with_``; ``gather`` adds further loose groups."""

    build: int
    with_: tuple[int, ...] = ()
    gather: tuple[tuple[int, ...], ...] = ()

    def __str__(self) -> str:
        s = f"{CARD_IDS[self.card]} extend B{CARD_IDS[self.build]}"
        if self.with_:
            s += " with " + "+".join(CARD_IDS[c] for c in self.with_)
        return s + " gather " + groups_text(self.gather) if self.gather else s

    def cards_used(self) -> frozenset[int]:
        return frozenset(self.with_) | frozenset(i for g in self.gather for i in g)

    def _json(self) -> dict[str, Any]:
        return {
            "build": "B" + CARD_IDS[self.build],
            "with": [CARD_IDS[c] for c in self.with_],
            "gather": [[item_id(i) for i in g] for g in self.gather],
            "take": ["B" + CARD_IDS[self.build]]
            + [CARD_IDS[c] for c in self.with_]
            + [item_id(i) for g in self.gather for i in g],
        }

    def label(self) -> str:
        s = f"{CARD_SYMBOLS[self.card]}"
        if self.with_:
            s += "+" + "+".join(CARD_SYMBOLS[c] for c in self.with_)
        s += f" onto the build on {CARD_SYMBOLS[self.build]} (bygger mere)"
        return s + f", gathering {groups_symbols(self.gather)}" if self.gather else s

    def key(self) -> tuple[Any, ...]:
        return ("extend", self.card, self.build, self.cards_used())


KasinoAction = Trail | Capture | Clear | Build | Raise | Extend
