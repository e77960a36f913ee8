"""Terminal picture of a Touché view: the board grid with markers, crowns and free spaces."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from spillebord.texts import game_text

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


def render(view: dict[str, Any], seat: int | None, lang: str = "en") -> RenderableType:
    """The board and four lines of facts; words in ``lang`` (texts.json ``ui``: ``t_*``)."""
    gt = game_text("touche", lang)
    w = gt.word
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

    # No frame: the 12×12 board and four lines of facts fit 80×24 with the prompt below.
    # Seats are named by number in the side lines ("0: hand 5 pile 13") to keep them one line.
    info = Text()
    grade = view.get("grade") or "-"
    info.append("Touché" + (f" {gt.seat(seat)}" if seat is not None else ""), style="bold")
    m = view["match"]
    tally = m["wins"] if m["mode"] == "wins" else m["points"]
    info.append(
        w(
            "t_info",
            " · Grade {grade} of {target} · dealer {dealer} · round {round} turn {turn} · "
            "game {game}: {mode} ",
            grade=str(grade),
            target=str(view.get("target")),
            dealer=str(view["dealer"]),
            round=str(view["round"]),
            turn=str(view["turn"]),
            game=f"{m['game_no']}/{m['games']}",
            mode=w(f"t_mode_{m['mode']}", str(m["mode"])),
        )
        + "-".join(map(str, tally))
        + "\n"
    )
    for side, name in enumerate(view["colours"]):
        seats = [i for i, s in enumerate(view["side_of"]) if s == side]
        info.append(f" {w(f'side_{name}', name)} ", style=SIDE_STYLE[side])
        types = ", ".join(t if gt.english else gt.term("pattern", t) for t in view["crowned_types"][side])
        supply = view["supply"][side]
        info.append(
            w(
                "t_side",
                " {n} crowned{types}, {supply} markers",
                n=str(view["counts"][side]),
                types=f" ({types})" if types else "",
                supply=str(supply) if supply is not None else "∞",
            )
        )
        for i in seats:
            mark = "▶" if view["to_act"] == i else ""
            info.append(
                w(
                    "t_seat_line",
                    " · {mark}{i}: hand {hand} pile {pile}",
                    mark=mark,
                    i=str(i),
                    hand=str(view["hand_sizes"][i]),
                    pile=str(view["pile_sizes"][i]),
                )
            )
        info.append("\n")
    info.rstrip()
    parts: list[RenderableType] = [grid, info]
    if view.get("pending"):
        parts.append(
            Text(
                w("t_choose", "Choose a pattern to crown: ")
                + " | ".join(" ".join(p) for p in view["pending"])
            )
        )
    hand = view.get("hand")
    if hand is not None:
        line = Text(w("t_your_hand", "Your hand: "))
        dead = set(view.get("dead", []))
        for code in hand:
            t = _card(code)
            if code in dead:
                t.stylize("dim strike")
            line.append_text(t)
            line.append(" ")
        parts.append(line)
    return Group(*parts)
