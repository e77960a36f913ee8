"""Terminal picture of a Touché view: the board grid with markers, crowns and free spaces."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED = {"H", "D"}
SIDE_STYLE = ("bold white on magenta", "bold white on blue", "bold black on yellow")
SIDE_NAME = ("purple", "blue", "yellow")


def _card(code: str) -> Text:
    if code == "JK":
        return Text("[JK]", style="bold magenta")
    rank = "10" if code[0] == "T" else code[0]
    return Text(f"[{rank}{SYMBOL[code[1]]}]", style="red" if code[1] in RED else "white")


def _cell_text(code: str | None, marker: dict[str, Any] | None, last: bool) -> Text:
    """Five characters: a two-character marker prefix ("p " uncrowned purple, "P♛" crowned) and
    the card (or FR for a free space)."""
    if code is None:
        return Text("     ")
    if code == "FREE":
        label = "FR "
    else:
        rank = "10" if code[0] == "T" else code[0]
        label = f"{rank}{SYMBOL[code[1]]}".ljust(3)
    if marker is None:
        if code == "FREE":
            return Text("  " + label, style="bold green")
        return Text("  " + label, style="red" if code[1] in RED else "grey70")
    side = marker["side"]
    letter = SIDE_NAME[side][0]
    prefix = letter.upper() + "♛" if marker["crowned"] else letter + " "
    style = SIDE_STYLE[side]
    if marker["crowned"]:
        style += " underline"
    if last:
        style += " reverse"
    return Text(prefix + label, style=style)


def render(view: dict[str, Any], seat: int | None) -> RenderableType:
    markers = {m["cell"]: m for m in view.get("markers", [])}
    layout = view["layout"]
    grid = Table.grid(padding=(0, 1))
    grid.add_column(justify="right", style="dim")
    for _ in range(12):
        grid.add_column()
    grid.add_row("", *[Text(f"  c{c}".ljust(5), style="dim") for c in range(12)])
    for r in range(12):
        cells = []
        for c in range(12):
            cid = f"r{r}c{c}"
            cells.append(_cell_text(layout[r][c], markers.get(cid), view.get("last") == cid))
        grid.add_row(f"r{r}", *cells)

    info = Text()
    grade = view.get("grade") or "-"
    info.append(f"Grade {grade}  target {view.get('target')}  ", style="bold")
    info.append(f"dealer seat {view['dealer']}  round {view['round']}  turn {view['turn']}\n")
    for side, name in enumerate(view["colours"]):
        seats = [str(i) for i, s in enumerate(view["side_of"]) if s == side]
        info.append(f" {name} ", style=SIDE_STYLE[side])
        types = ", ".join(view["crowned_types"][side]) or "-"
        supply = view["supply"][side]
        info.append(
            f" seats {'+'.join(seats)}: {view['counts'][side]} crowned ({types}), "
            f"markers left {supply if supply is not None else '∞'}\n"
        )
    for s in range(view["seats"]):
        mark = "▶ " if view["to_act"] == s else "  "
        info.append(
            f"{mark}seat {s}: hand {view['hand_sizes'][s]}, pile {view['pile_sizes'][s]}, "
            f"discards {len(view['discards'][s])}\n"
        )
    m = view["match"]
    info.append(
        f"Match: game {m['game_no']} of {m['games']} ({m['mode']}), wins {m['wins']}, points {m['points']}"
    )
    parts: list[RenderableType] = [grid, info]
    if view.get("pending"):
        parts.append(Text("Choose a pattern to crown: " + " | ".join(" ".join(p) for p in view["pending"])))
    hand = view.get("hand")
    if hand is not None:
        line = Text("Your hand: ")
        dead = set(view.get("dead", []))
        for code in hand:
            t = _card(code)
            if code in dead:
                t.stylize("dim strike")
            line.append_text(t)
            line.append(" ")
        parts.append(line)
    title = "Touché" + (f": seat {seat}" if seat is not None else "")
    return Panel(Group(*parts), title=title)
