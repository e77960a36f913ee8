"""Terminal picture of Revir: the farm as a map of squares, the card clock, the players.

Each square shows its id and Swedish name in its series colour (plain squares grey), indoor
squares on a dark background, the territory's owner (``P1``…) and the cats on it (``🐈1``).
Below the map: which doors are open, the card clock (the card turned up this turn marked
``▶``), every player's stones and territories per colour, and a fight in progress.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

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


def _farm(view: dict[str, Any]) -> Table:
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
    t = Table(show_header=False, show_lines=True, box=None, padding=(0, 0))
    for _ in range(cols):
        t.add_column(width=WIDTH + 1, no_wrap=True, overflow="crop")
    for y in range(rows):
        cells: list[Text] = []
        for x in range(cols):
            s = grid.get((x, y))
            if s is None:
                cells.append(Text(" " * WIDTH))
                continue
            bg = " on grey15" if s["indoor"] else ""
            style = COLOUR_STYLE.get(s["colour"] or "", "grey70") + bg
            cell = Text()
            cell.append(f"{s['id']} {s['sv']}"[:WIDTH].ljust(WIDTH), style=style)
            cell.append(" ")
            cell.append("\n")
            line = Text()
            if s["id"] in owner:
                o = owner[s["id"]]
                line.append(f"{_p(o)}{s['profile']} ", style=SEAT_STYLE[o % 4])
            elif s["id"] in door_at:
                is_open = door_at[s["id"]]
                style = "bold green" if is_open else "red"
                line.append("door open " if is_open else "door shut ", style=style)
            elif s["indoor"]:
                line.append("inne ", style="grey50")
            for c in cats.get(s["id"], []):
                line.append(f"🐈{c + 1}", style=f"bold {SEAT_STYLE[c % 4]}")
            cell.append_text(line)
            cells.append(cell)
        t.add_row(*cells)
    return t


def _clock(view: dict[str, Any]) -> Text:
    clock = view["clock"]
    cards = view["board"]["cards"]
    out = Text()
    out.append(f"Kortklockan (turn {view['turn']}, {clock['size']} places, pile {clock['pile_size']}):\n")
    for i, cid in enumerate(clock["positions"]):
        new = i == clock["new_position"]
        mark = "▶" if new else " "
        if cid is None:
            out.append(f" {mark}{i}: ·\n", style="grey50")
            continue
        c = cards[cid]
        style = {"permit": "cyan", "happen": "green", "once": "yellow"}[c["type"]]
        if c["type"] == "once" and not new:
            style = "grey50"
        out.append(f" {mark}{i}: {cid} {c['sv']} — {c['text']}\n", style=style)
    eff = view["effects"]
    doors = eff["doors_open"]
    out.append("Doors: ")
    for d in view["board"]["doors"]:
        is_open = d["id"] in doors
        out.append(f"{d['sv']} {'OPEN' if is_open else 'closed'}  ", style="bold green" if is_open else "red")
    if eff["hunt"]:
        out.append(f"\nRat hunting on: {' '.join(eff['hunt'])}")
    if eff["free_move"]:
        out.append("  (moving is free this turn)")
    return out


def _players(view: dict[str, Any], seat: int | None) -> Table:
    colours = view["board"]["colours"]
    t = Table(box=None, padding=(0, 1))
    t.add_column("")
    t.add_column("Cat")
    t.add_column("Stones", justify="right")
    for c in colours:
        t.add_column(c["sv"], style=COLOUR_STYLE[c["id"]], justify="center")
    colour_of = {s["id"]: s["colour"] for s in view["board"]["squares"]}
    for p, sq in enumerate(view["cats"]):
        terr = view["territories"][p]
        name = _p(p) + (" (you)" if p == seat else "") + (" ◀" if p == view["to_act"] else "")
        stones = view["stones"][p]
        row = [
            Text(name, style=SEAT_STYLE[p % 4]),
            sq,
            "?" if stones is None else str(stones),
        ]
        for c in colours:
            row.append(" ".join(x for x in terr if colour_of[x] == c["id"]) or "·")
        t.add_row(*row)
    bank = view["bank"]
    t.add_row("bank", "", "?" if bank is None else str(bank))
    return t


def _fight(view: dict[str, Any]) -> Text | None:
    f = view["fight"]
    if f is None:
        return None
    out = Text()
    a, d = f["attacker"], f["defender"]
    out.append(f"Fight over {f['territory']}: {_p(a)} attacks {_p(d)}, round {f['round']}\n", style="bold")
    av = ["?" if x is None else str(x) for x in f["available"]]
    out.append(f"  hits {f['hits'][0]}-{f['hits'][1]}   committed {f['committed'][0]}/{f['committed'][1]}")
    out.append(f"   available {av[0]}/{av[1]}\n")
    if f["last"] is not None:
        last = ["surrender" if x < 0 else str(x) for x in f["last"]]
        out.append(f"  last round: {_p(a)} {last[0]}, {_p(d)} {last[1]}\n")
    if f["attacker_submitted"]:
        mine = f.get("my_submission")
        out.append(f"  {_p(a)} has bid" + (f" ({mine})" if mine is not None else " [hidden]") + "\n")
    return out


def render(view: dict[str, Any], seat: int | None) -> RenderableType:
    parts: list[RenderableType] = [_farm(view), _clock(view), _players(view, seat)]
    fight = _fight(view)
    if fight is not None:
        parts.append(fight)
    if view["winners"] is not None:
        parts.append(Text("Winner: " + ", ".join(_p(w) for w in view["winners"]), style="bold green"))
    title = f"Revir — Tviksta Gård — {view['phase']}"
    if view["to_act"] is not None:
        title += f" — {_p(view['to_act'])} to act"
    return Panel(Group(*parts), title=title)
