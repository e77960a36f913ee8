"""The terminal's play screen: the board, the last moves, the legal actions, the last error and
the prompt, fitted to the terminal so that nothing the player needs scrolls away.

A long legal list (Metscri's Enter phase: 142 actions) is grouped by the start of the action
texts, paged, and narrowed as the player types part of an action; the numbers stay those of the
full list, so a number read on one page plays the same action on any other. No I/O here: the
command line (``cli.py``) reads the keyboard and prints what :func:`screen` composes.
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.text import Text

from spillebord.words import say

SUIT_LETTERS = str.maketrans({"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"})
"""Suit symbols as the letters action texts use (``Q♦`` → ``QD``)."""

QUIT = ("q", "quit", "exit")


def _fold(text: str) -> str:
    """Text as compared by the filter: case-insensitive, suit symbols as letters."""
    return text.translate(SUIT_LETTERS).casefold()


@dataclass
class Entry:
    """One legal action as the list shows it: its number in the full list, text and label."""

    number: int
    text: str
    label: str
    key: str = field(init=False)

    def __post_init__(self) -> None:
        self.key = _fold(self.text) + "\n" + _fold(self.label)


@dataclass
class Picker:
    """The legal actions of one decision, with the player's filter and page.

    :meth:`answer` reads one line of input: a number, an action's text (played), part of one
    (narrows the list), Enter / ``<`` (next / previous page), ``/`` (clear the filter)."""

    entries: list[Entry]
    filter: str = ""
    page: int = 0
    rows: int = 10
    """Action lines per page, set by :func:`screen` from the terminal's height."""
    lang: str = "en"
    """The language of the picker's own messages (the labels come translated)."""

    @classmethod
    def of(
        cls, actions: Sequence[Any], label: Callable[[Any], str] | None = None, lang: str = "en"
    ) -> Picker:
        """The list of ``actions``, each shown by ``label`` (default: the action's own
        ``label()``, else its text); narrowing matches the text and the shown label."""
        out = []
        for i, a in enumerate(actions, 1):
            text = str(a)
            if label is not None:
                shown = label(a)
            else:
                label_fn = getattr(a, "label", None)
                shown = label_fn() if callable(label_fn) else text
            out.append(Entry(i, text, shown))
        return cls(out, lang=lang)

    def matches(self) -> list[Entry]:
        if not self.filter:
            return self.entries
        words = _fold(self.filter).split()
        return [e for e in self.entries if all(w in e.key for w in words)]

    def pages(self) -> int:
        n = len(self.matches())
        return max(1, -(-n // max(1, self.rows)))

    def answer(self, raw: str, parse: Callable[[str], Any] | None = None) -> tuple[str | None, str | None]:
        """(action text to play, or None) and a message for the player (or None).

        ``parse`` is the game's reader (text → action); a text it reads as one of the listed
        actions is played even when written differently (``Q♦ trail`` for ``QD trail``)."""
        raw = raw.strip()
        if raw.isdigit():
            k = int(raw)
            if 1 <= k <= len(self.entries):
                return self.entries[k - 1].text, None
            return None, say(self.lang, "no_option", k=k, n=len(self.entries))
        if raw == "":
            if self.pages() > 1:
                self.page = (self.page + 1) % self.pages()
                return None, None
            return None, say(self.lang, "type_number")
        if raw == "<":
            self.page = (self.page - 1) % self.pages()
            return None, None
        if raw in ("/", "*", "all"):
            self.filter, self.page = "", 0
            return None, None
        for e in self.entries:
            if e.text == raw:
                return e.text, None
        if parse is not None:
            try:
                a = parse(raw)
            except Exception:  # not a readable action: perhaps part of one (a filter)
                a = None
            if a is not None:
                # a well-formed action: play it, or let the game say why it is not legal now
                return str(a) if any(e.text == str(a) for e in self.entries) else raw, None
        old = self.filter
        self.filter = raw
        if self.matches():
            self.page = 0
            return None, None
        self.filter = old
        return raw, None  # the game reads it and says why it cannot

    # ------------------------------------------------------------------ display

    def lines(self, rows: int, width: int) -> list[Text]:
        """At most ``rows`` lines (at least 2) showing the current page of the list."""
        rows = max(2, rows)
        found = self.matches()
        note = 1 if self.filter else 0
        if len(found) + note <= rows:
            self.rows = rows
            self.page = 0
            out = [self._line(e, width) for e in found]
            if self.filter:
                out.append(Text(say(self.lang, "narrowed", f=self.filter), style="dim"))
            return out
        groups = _groups([e.text for e in found])
        head = rows >= 5 and groups is not None
        self.rows = rows - 1 - (1 if head else 0)
        self.page %= self.pages()
        start = self.page * self.rows
        shown = found[start : start + self.rows]
        out = []
        if head and groups is not None:
            out.append(
                _crop(
                    Text(
                        say(self.lang, "groups") + " · ".join(f"{g} ({n})" for g, n in groups), style="cyan"
                    ),
                    width,
                )
            )
        out += [self._line(e, width) for e in shown]
        what = f"'{self.filter}': " if self.filter else ""
        out.append(
            _crop(
                Text(
                    what + say(self.lang, "page", a=start + 1, b=start + len(shown), n=len(found)),
                    style="dim",
                ),
                width,
            )
        )
        return out

    @staticmethod
    def _line(e: Entry, width: int) -> Text:
        t = Text()
        t.append(f"{e.number:>4} ", style="bold cyan")
        t.append(e.label)
        if e.label != e.text:
            t.append(f"  {e.text}", style="dim")
        return _crop(t, width)


def _crop(t: Text, width: int) -> Text:
    if t.cell_len > width:
        t.truncate(width - 1)
        t.append("…")
    t.no_wrap = True
    return t


def _groups(texts: list[str]) -> list[tuple[str, int]] | None:
    """The actions grouped by their first words, at the deepest depth (up to three words) that
    splits them into 2–12 groups of two or more actions on average (``enter JSa (20)``); None
    when no depth does (``lay 00`` … ``lay 99``: paging and typing serve better)."""
    best = None
    for depth in (1, 2, 3):
        c = Counter(" ".join(t.split()[:depth]) for t in texts)
        if 1 < len(c) <= min(12, len(texts) // 2):
            best = c
    return list(best.items()) if best is not None else None


def height(renderable: RenderableType, width: int) -> int:
    """Lines ``renderable`` takes at ``width`` columns."""
    c = Console(width=width, file=io.StringIO(), color_system=None, legacy_windows=False)
    return len(c.render_lines(renderable, c.options.update(width=width), pad=False))


def screen(
    board: RenderableType,
    moves: Sequence[str],
    picker: Picker,
    error: str | None,
    width: int,
    rows: int,
    lang: str = "en",
) -> Group:
    """Board, the last moves, the list, the error: everything but the prompt's own line, in at
    most ``rows - 1`` lines of ``width`` columns (the board itself must leave room: each
    game's picture is kept small enough for 80×24)."""
    board_h = height(board, width)
    left = rows - 1 - board_h - 1  # the prompt; the error or help line
    room = max(1, left - 4)  # the list keeps at least 3 lines, the last move is always shown
    move_lines: list[Text] = []
    if len(moves) <= room:
        shown = list(moves)
    elif room == 1:
        shown = [say(lang, "earlier_one", n=len(moves) - 1) + moves[-1]]
    else:
        shown = list(moves[-(room - 1) :])
        move_lines.append(Text("· … " + say(lang, "earlier", n=len(moves) - len(shown)), style="dim"))
    move_lines += [_crop(Text(f"· {m}", style="dim"), width) for m in shown]
    list_rows = left - len(move_lines)
    if error:
        listed = picker.lines(list_rows, width)
        bottom = [_crop(Text(error, style="bold red"), width)]
    else:
        # no error: the line is the list's (a paged list says how to use it in its footer)
        listed = picker.lines(list_rows + 1, width)
        bottom = [] if len(listed) > list_rows else [_crop(Text(say(lang, "help"), style="dim"), width)]
    return Group(board, *move_lines, *listed, *bottom)
