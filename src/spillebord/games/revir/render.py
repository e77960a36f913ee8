"""Terminal picture of Revir: the farm as a map of squares, the card clock, the players.

Each square is one line: its id in its series colour (plain squares grey, indoor squares on a
dark background), then the territory's owner and profile (``P2L``) or a door's state, and the
cats on it (``🐈1``). Below the map: the card clock (the card turned up this turn marked ``▶``
and spelled out), where rats may be hunted, every player's stones and territories per colour,
and a fight in progress. The whole picture fits an 80×24 terminal with the prompt below it.
"""

from __future__ import annotations

import re
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from spillebord.texts import GameText, game_text

COLOUR_STYLE = {
    "ROD": "bold red",
    "GUL": "bold yellow",
    "GRON": "bold green",
    "BLA": "bold blue",
    "LILA": "bold magenta",
}
SEAT_STYLE = ("bright_cyan", "bright_magenta", "bright_yellow", "bright_green")
WIDTH = 10


def _p(seat: int) -> str:
    return f"P{seat + 1}"


def _farm(view: dict[str, Any], wide: bool, gt: GameText) -> Table:
    board = view["board"]
    squares = board["squares"]
    cols = 1 + max(s["x"] for s in squares)
    rows = 1 + max(s["y"] for s in squares)
    grid: dict[tuple[int, int], dict[str, Any]] = {(s["x"], s["y"]): s for s in squares}
    owner = view["owner"]
    open_doors = set(view["effects"]["doors_open"])
    door_at: dict[str, bool] = {}
    for d in board["doors"]:
        for sq in d["edge"]:
            door_at[sq] = d["id"] in open_doors
    cats: dict[str, list[int]] = {}
    for seat, sq in enumerate(view["cats"]):
        cats.setdefault(sq, []).append(seat)
    width = 2 * WIDTH - 1 if wide else WIDTH  # wide: the Swedish names too (7 × 20 columns)
    t = Table(show_header=False, box=None, padding=(0, 0))
    for _ in range(cols):
        t.add_column(width=width + 1, no_wrap=True, overflow="crop")
    for y in range(rows):
        cells: list[Text] = []
        for x in range(cols):
            s = grid.get((x, y))
            if s is None:
                cells.append(Text(" " * width))
                continue
            bg = " on grey15" if s["indoor"] else ""
            cell = Text()
            name = f"{s['id']} {s['sv']}"[: WIDTH - 1].ljust(WIDTH - 1) if wide else s["id"]
            cell.append(name, style=COLOUR_STYLE.get(s["colour"] or "", "grey70") + bg)
            cell.append(" ")
            if s["id"] in owner:
                o = owner[s["id"]]
                cell.append(f"{_p(o)}{s['profile']}", style=SEAT_STYLE[o % 4])
            elif s["id"] in door_at:
                is_open = door_at[s["id"]]
                w = gt.word
                word = (
                    (w("open", "open") if is_open else w("shut", "shut"))
                    if not wide
                    else (w("t_door_open", "door open") if is_open else w("t_door_shut", "door shut"))
                )
                cell.append(word, style="bold green" if is_open else "red")
            elif s["indoor"]:
                cell.append("inne", style="grey50")
            here = cats.get(s["id"], [])
            if here:  # one cat sign, then each cat's player number in his colour
                cell.append("🐈", style="bold")
                for c in here:
                    cell.append(str(c + 1), style=f"bold {SEAT_STYLE[c % 4]}")
            cell.pad_right(1)  # a gap before the next square, however full this one is
            cells.append(cell)
        t.add_row(*cells)
    return t


def _clock(view: dict[str, Any], wide: bool, gt: GameText) -> Text:
    """Three lines: the clock's cards by id, the card just turned spelled out, the hunting
    (wide: and the doors)."""
    clock = view["clock"]
    cards = view["board"]["cards"]
    w = gt.word
    out = Text()
    out.append(
        w(
            "t_clock",
            "Kortklockan (turn {turn}, pile {pile}):",
            turn=str(view["turn"]),
            pile=str(clock["pile_size"]),
        )
    )
    new_card = None
    for i, cid in enumerate(clock["positions"]):
        new = i == clock["new_position"]
        if cid is None:
            out.append(f" {'▶' if new else ''}{i}:·", style="grey50")
            continue
        c = cards[cid]
        style = {"permit": "cyan", "happen": "green", "once": "yellow"}[c["type"]]
        if c["type"] == "once" and not new:
            style = "grey50"
        if new:
            new_card = (cid, c, style)
        out.append(f" {'▶' if new else ''}{i}:{cid}", style=style + (" bold" if new else ""))
    lines = [out]
    if new_card is not None:
        cid, c, style = new_card
        if gt.english:
            detail = c["text"]
        elif c["sv"].startswith("Råttspår"):  # the squares it opens, as the web shows it
            detail = c["text"].replace("Rat hunting allowed on ", "")
        else:
            detail = w(f"card_{re.sub('[^a-z]+', '_', c['en'].lower())}", c["en"])
        lines.append(Text(f"▶ {cid} {c['sv']} — {detail}", style=style))
    eff = view["effects"]
    if wide:
        doors = Text(w("t_doors", "Doors: "))
        for d in view["board"]["doors"]:
            is_open = d["id"] in eff["doors_open"]
            state = w("t_OPEN", "OPEN") if is_open else w("t_closed", "closed")
            doors.append(f"{d['sv']} {state}  ", style="bold green" if is_open else "red")
        lines.append(doors)
    hunt = Text(w("t_hunt", "Rat hunting on: ") + (" ".join(eff["hunt"]) or w("t_nothing", "nothing")))
    if eff["free_move"]:
        hunt.append(w("t_free", " · moving is free this turn"))
    lines.append(hunt)
    for t in lines:  # one line each: the map stays on screen
        t.no_wrap = True
        t.overflow = "ellipsis"
    return Text("\n").join(lines)


def _players(view: dict[str, Any], seat: int | None, gt: GameText) -> Table:
    w = gt.word
    colours = view["board"]["colours"]
    t = Table(box=None, padding=(0, 1))
    t.add_column("")
    t.add_column(w("t_cat", "Cat"))
    bank = view["bank"]
    t.add_column(
        w("t_stones", "Stones (bank {bank})", bank="?" if bank is None else str(bank)), justify="right"
    )
    for c in colours:
        t.add_column(c["sv"], style=COLOUR_STYLE[c["id"]], justify="center")
    colour_of = {s["id"]: s["colour"] for s in view["board"]["squares"]}
    for p, sq in enumerate(view["cats"]):
        terr = view["territories"][p]
        name = _p(p) + (w("t_you", " (you)") if p == seat else "") + (" ◀" if p == view["to_act"] else "")
        stones = view["stones"][p]
        row = [
            Text(name, style=SEAT_STYLE[p % 4]),
            sq,
            "?" if stones is None else str(stones),
        ]
        for c in colours:
            row.append(" ".join(x for x in terr if colour_of[x] == c["id"]) or "·")
        t.add_row(*row)
    return t


def _fight(view: dict[str, Any], gt: GameText) -> Text | None:
    w = gt.word
    f = view["fight"]
    if f is None:
        return None
    out = Text()
    a, d = f["attacker"], f["defender"]
    head = w(
        "t_fight",
        "Fight over {territory}: {a} attacks {d}, round {round}",
        territory=str(f["territory"]),
        a=_p(a),
        d=_p(d),
        round=str(f["round"]),
    )
    out.append(head, style="bold")
    av = ["?" if x is None else str(x) for x in f["available"]]
    out.append(w("t_hits", " · hits {a}-{b}", a=str(f["hits"][0]), b=str(f["hits"][1])) + "\n")
    com = f["committed"]
    out.append(
        w(
            "t_committed",
            "  committed {a}/{b} · available {c}/{d}",
            a=str(com[0]),
            b=str(com[1]),
            c=av[0],
            d=av[1],
        )
    )
    if f["last"] is not None:
        last = [w("t_surrender", "surrender") if x < 0 else str(x) for x in f["last"]]
        out.append(w("t_last", " · last {a} {x}, {d} {y}", a=_p(a), x=last[0], d=_p(d), y=last[1]))
    if f["attacker_submitted"]:
        mine = f.get("my_submission")
        out.append(
            w("t_has_bid", " · {a} has bid", a=_p(a))
            + (f" ({mine})" if mine is not None else w("t_hidden", " [hidden]"))
        )
    out.no_wrap = True
    out.overflow = "ellipsis"
    return out


class _Picture:
    """The picture for the width it is drawn at: from 128 columns the map names every square
    and the doors get their own line; narrower, it keeps to 80×24 with the prompt."""

    def __init__(self, view: dict[str, Any], seat: int | None, lang: str = "en") -> None:
        self.view, self.seat, self.lang = view, seat, lang

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield _render(self.view, self.seat, wide=options.max_width >= 128, gt=game_text("revir", self.lang))


def render(view: dict[str, Any], seat: int | None, lang: str = "en") -> RenderableType:
    """The picture in ``lang`` (texts.json ``ui``; the farm's Swedish names as they are)."""
    return _Picture(view, seat, lang)


def _render(view: dict[str, Any], seat: int | None, wide: bool, gt: GameText) -> RenderableType:
    w = gt.word
    parts: list[RenderableType] = [_farm(view, wide, gt), _clock(view, wide, gt), _players(view, seat, gt)]
    fight = _fight(view, gt)
    if fight is not None:
        parts.append(fight)
    if view["winners"] is not None:
        parts.append(
            Text(w("t_winner", "Winner: ") + ", ".join(_p(x) for x in view["winners"]), style="bold green")
        )
    title = f"Revir — Tviksta Gård — {w('t_phase_' + view['phase'], view['phase'])}"
    if view["to_act"] is not None:
        title += w("t_to_act", " — {p} to act", p=_p(view["to_act"]))
    return Group(Rule(title, style="grey50"), *parts)
