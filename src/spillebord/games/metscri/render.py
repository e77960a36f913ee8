"""Terminal picture of a Metscri view: the 7x7 board with rings, stack heights, face-up symbols
and the face-down cards the seat knows, plus dice, AP, scores, piles and the seat's hand."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED = {"H", "D"}
RING_STYLE = ("on grey15", "on grey23", "on grey30", "on grey37")


def card_text(card_id: str | None, up: bool) -> Text:
    """``[9♥]`` coloured when face up, dim when known but face down, ``[##]`` when unknown."""
    if card_id is None:
        return Text("[##]", style="bold blue" if up else "blue")
    rank, suit = card_id[:-2], card_id[-2]
    face = f"{rank}{SUIT_SYMBOL.get(suit, suit)}"
    colour = "red" if suit in RED else "white"
    if up:
        return Text(f"[{face}]", style=f"bold {colour}")
    return Text(f"({face})", style=f"dim {colour} italic")


def _cell(sq: dict[str, Any]) -> Text:
    cards = sq["cards"]
    t = Text()
    if not cards:
        t.append("      \n", style="grey50")
        t.append(f"ring {sq['ring']}", style="grey35")
        return t
    top = cards[-1]
    t.append_text(card_text(top["card"], top["up"]))
    t.append(f" {len(cards)}" if len(cards) > 1 else "  ", style="yellow")
    t.append("\n")
    below = [c for c in cards[:-1]]
    if below:
        t.append("·".join((c["card"] or "##")[:-1] for c in below), style="grey62")
    return t


def render(view: dict[str, Any], seat: int | None) -> RenderableType:
    board = Table(show_header=True, show_lines=True, box=box.SQUARE, padding=(0, 0), header_style="bold")
    board.add_column("")
    for c in range(7):
        board.add_column(f"c{c}", justify="center", min_width=7)
    cells = view["board"]
    for r in range(7):
        row: list[RenderableType] = [Text(f"r{r}", style="bold")]
        for c in range(7):
            name = f"r{r}c{c}"
            if name not in cells:
                label = "buy" if (r, c) == (0, 0) else "matched" if (r, c) == (6, 6) else ""
                if label == "buy":
                    row.append(Text(f"buy\n{view['buy_size']}", style="magenta"))
                elif label == "matched":
                    row.append(Text(f"match\n{len(view['matched'])}", style="magenta"))
                else:
                    row.append(Text("╳", style="grey30"))
                continue
            sq = cells[name]
            cell = _cell(sq)
            cell.stylize(RING_STYLE[sq["ring"]])
            if view.get("spied") == name:
                cell.stylize("underline")
            row.append(cell)
        board.add_row(*row)

    info = Table.grid(padding=(0, 2))
    info.add_column(style="bold")
    info.add_column()
    to_act = view["to_act"]
    if to_act is None:
        winners = view.get("winners") or []
        info.add_row("Game over", "winner: " + ", ".join(f"seat {w}" for w in winners))
    else:
        info.add_row("To act", f"seat {to_act}" + (" (you)" if to_act == seat else ""))
        info.add_row("Phase", view["phase"])
        rolls = view["rolls"]
        if rolls:
            info.add_row("Dice", " ".join(map(str, rolls)) + f"  (sum {sum(rolls)})")
        if view["phase"] != "roll":
            info.add_row(
                "AP", f"{view['ap']} of {view['ap_earned']}; next turn costs {view['next_turn_cost']}"
            )
    scores = "  ".join(
        f"{'▶' if i == to_act else ' '}seat {i}: {p}" + (" (you)" if i == seat else "")
        for i, p in enumerate(view["scores"])
    )
    info.add_row("M-points", f"{scores}   target {view['target']}")
    info.add_row("Hands", "  ".join(f"seat {i}: {n}" for i, n in enumerate(view["hand_sizes"])))
    info.add_row("Piles", f"buy {view['buy_size']}, matched {len(view['matched'])}")
    if view["matched"]:
        top = Text()
        for cid in view["matched"][-8:]:
            top.append_text(card_text(cid, True))
        info.add_row("Matched top", top)
    if view.get("max_rounds"):
        info.add_row("Round", f"{view['round'] + 1} of {view['max_rounds']}")
    parts: list[RenderableType] = [board, info]
    if view.get("hand") is not None:
        hand = Text("Your hand: ", style="bold")
        for cid in view["hand"]:
            hand.append_text(card_text(cid, True))
            hand.append(" ")
        parts.append(hand)
    legend = Text(
        "[9♥] face up   (9♥) face down, known to you   [##] face down   digit = stack height   "
        "cells shaded by ring 0-3",
        style="grey50",
    )
    parts.append(legend)
    return Panel(Group(*parts), title="Metscri", subtitle=f"seat {seat}" if seat is not None else "spectator")
