"""Kasino's rules by brute force, written from the rules (``docs/rules/kasino.md``) and
independent of the engine's generator: every subset, every partition, every value checked
against the rule itself. Slow, exhaustive and simple, for small positions.

* :func:`capture_legal`: rule 6.2 (a partition of the set into groups worth one value);
* :func:`brute_builds`: rules 8.1–8.5 (create, raise, extend) under 9.1;
* :func:`brute_effects`: every distinct effect of the player to act, obligations 9.1–9.3 and
  the ``classic`` variant included: what ``legal()`` must list, one action per effect;
* :func:`effect_text`: a text naming that effect (any grouping: the engine reads it as the
  legal action with the same effect), and :func:`brute_perft`, the number of decision
  sequences counted with these effects (the engine only applies them).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from spillebord.games.kasino import GAME
from spillebord.games.kasino.actions import BUILD_CODE, item_id
from spillebord.games.kasino.data import CARD_IDS, HAND_VALUES, SPADE5, TABLE_VALUES
from spillebord.games.kasino.rules import KasinoState

Effect = tuple[Any, ...]


def table_codes(state: KasinoState) -> list[int]:
    """The table items: loose cards (their card numbers) and builds (``BUILD_CODE + base``)."""
    return list(state.loose) + [BUILD_CODE + b.groups[0][0] for b in state.builds]


def _build(state: KasinoState, code: int) -> Any:
    return next(b for b in state.builds if b.groups[0][0] == code - BUILD_CODE)


def _item_values(state: KasinoState, code: int) -> list[int] | None:
    """Values of a table item inside a sum group (None: a build outside build_in_sums)."""
    if code >= BUILD_CODE:
        return [_build(state, code).value] if state.o.build_in_sums else None
    return list(TABLE_VALUES[state.o.value_mode][code])


def _group_ok(state: KasinoState, group: tuple[int, ...], v: int) -> bool:
    if len(group) == 1 and group[0] >= BUILD_CODE and _build(state, group[0]).value == v:
        return True
    sums = {0}
    for code in group:
        vals = _item_values(state, code)
        if vals is None:
            return False
        sums = {s + x for s in sums for x in vals}
    return v in sums


def partitionable(state: KasinoState, items: tuple[int, ...], v: int) -> bool:
    """Can ``items`` be split into groups each worth ``v`` (rule 6.2.4)?"""
    if not items:
        return True
    first, rest = items[0], items[1:]
    for k in range(len(rest) + 1):
        for others in combinations(rest, k):
            if _group_ok(state, (first, *others), v):
                remaining = tuple(x for x in rest if x not in others)
                if partitionable(state, remaining, v):
                    return True
    return False


def capture_legal(state: KasinoState, card: int, taken: frozenset[int]) -> bool:
    """Rule 6.2 by brute force: some v in val_h(card) and a partition of the set into groups."""
    items = tuple(sorted(taken))
    return bool(items) and any(partitionable(state, items, v) for v in HAND_VALUES[state.o.value_mode][card])


def _sums(state: KasinoState, cards: tuple[int, ...]) -> set[int]:
    sums = {0}
    for c in cards:
        sums = {x + y for x in sums for y in TABLE_VALUES[state.o.value_mode][c]}
    return sums


def _subsets(xs: list[int]) -> list[tuple[int, ...]]:
    return [c for k in range(len(xs) + 1) for c in combinations(xs, k)]


def brute_builds(state: KasinoState, p: int, cards: tuple[int, ...] | None = None) -> set[Effect]:
    """Rules 8.1–8.5 by brute force: the effects (kind, card, value or build, cards used,
    multiple) of every create / raise / extend with the hand ``cards`` (default: all) of
    ``p``, under rule 9.1 (an owner builds only on his own build and creates none), D20 (no
    second pile of a value already built: a raise onto it joins that pile, which an owner may
    not do with his own) and D21 (the loose cards worth the value must be taken in)."""
    hv = HAND_VALUES[state.o.value_mode]
    tv = TABLE_VALUES[state.o.value_mode]
    hand = state.hands[p]
    loose = list(state.loose)
    owns = any(b.owner == p for b in state.builds)
    same_pile = state.o.more_builds == "same_pile"
    compulsory = state.o.gathering == "compulsory"
    built = {bp.value for bp in state.builds}

    def gathers_all(base: tuple[int, ...], g: tuple[int, ...], b: int) -> bool:
        return not compulsory or {c for c in loose if b in tv[c]} <= set(base) | set(g)

    out: set[Effect] = set()
    for h in hand if cards is None else cards:
        held = {v for c in hand if c != h for v in hv[c]}  # 8.1.2: kept after playing h
        for b in range(2, 17):
            if b not in held or owns or (same_pile and b in built):
                continue
            gathers = [g for g in _subsets(loose) if partitionable(state, g, b)]
            # create: sum form on one card (or several with many_cards), or "mere b" (8.2, 8.3)
            for base in _subsets(loose):
                if not base:
                    continue
                if len(base) > 1 and state.o.build_base == "one_card":
                    continue
                forms = []
                if any(b - x in _sums(state, base) for x in hv[h] if x < b):
                    forms.append(False)
                if len(base) == 1 and b in hv[h] and b in tv[base[0]]:
                    forms.append(True)
                for same in forms:
                    for g in gathers:
                        if set(g) & set(base) or not gathers_all(base, g, b):
                            continue
                        out.add(("build", h, b, frozenset(base) | frozenset(g), same or bool(g)))
        for bp in state.builds:
            if owns and bp.owner != p:
                continue
            bid = bp.groups[0][0]
            if not bp.multiple:  # raise (8.4)
                for x in hv[h]:
                    if bp.value + x <= 16 and bp.value + x in held:
                        if same_pile and owns and bp.value + x in built:
                            continue
                        out.add(("raise", h, bid, bp.value + x))
            b = bp.value  # extend (8.5)
            if b not in held:
                continue
            gathers = [g for g in _subsets(loose) if partitionable(state, g, b)]
            for base in _subsets(loose):
                if base:
                    if not any(b - x in _sums(state, base) for x in hv[h] if x < b):
                        continue
                elif b not in hv[h]:
                    continue
                for g in gathers:
                    if not set(g) & set(base) and gathers_all(base, g, b):
                        out.add(("extend", h, bid, frozenset(base) | frozenset(g)))
    return out


def brute_effects(state: KasinoState) -> set[Effect]:
    """Every distinct effect the player to act may choose (rules 5–9 and the options)."""
    p = state.to_act
    assert p is not None
    o = state.o
    hv = HAND_VALUES[o.value_mode]
    hand = state.hands[p]
    codes = table_codes(state)
    own = next((b for b in state.builds if b.owner == p), None)
    reserve = None  # 9.3: the last card able to take the own build
    if own is not None:
        able = [c for c in hand if own.value in hv[c]]
        if len(able) == 1:
            reserve = able[0]
    own_code = BUILD_CODE + own.groups[0][0] if own is not None else None
    captures: set[Effect] = set()
    for h in hand:
        for k in range(1, len(codes) + 1):
            for s in combinations(codes, k):
                if (h != reserve or own_code in s) and capture_legal(state, h, frozenset(s)):
                    captures.add(("capture", h, frozenset(s)))
        if h == SPADE5 and codes:  # 7: takes everything, the own build included
            captures.add(("clear", h))
    others: set[Effect] = set()
    free = [h for h in hand if h != reserve]
    others |= brute_builds(state, p, tuple(free))
    if not (o.build_obligations == "classic" and own is not None):
        others |= {("trail", h) for h in free}
    if o.build_obligations == "text" and state.built_last >> p & 1 and captures:
        return captures  # 9.2: capture after building, if you can
    return captures | others


def effect_text(effect: Effect) -> str:
    """An action text with this effect (one group, one base: the engine finds the grouping)."""
    kind, h = effect[0], CARD_IDS[effect[1]]
    if kind in ("trail", "clear"):
        return f"{h} {kind}"
    if kind == "capture":
        return f"{h} take " + "+".join(item_id(i) for i in sorted(effect[2]))
    if kind == "raise":
        return f"{h} raise B{CARD_IDS[effect[2]]} to {effect[3]}"
    if kind == "extend":
        used = sorted(effect[3])
        return f"{h} extend B{CARD_IDS[effect[2]]}" + (
            " with " + "+".join(CARD_IDS[c] for c in used) if used else ""
        )
    _, _, value, used_set, multiple = effect
    used = sorted(used_set)
    if not multiple or len(used) == 1:
        return f"{h} build {value} on " + "+".join(CARD_IDS[c] for c in used)
    return f"{h} build {value} on {CARD_IDS[used[0]]} gather " + "+".join(CARD_IDS[c] for c in used[1:])


def brute_perft(state: KasinoState, depth: int) -> int:
    """Decision sequences of length ``depth`` from ``state``, with the brute-force effects."""
    if depth == 0 or state.to_act is None:
        return 1
    total = 0
    for e in brute_effects(state):
        s = state.copy()
        s.play(GAME.parse(s, effect_text(e)))
        total += brute_perft(s, depth - 1)
    return total
