"""Terminal picture of a Metscri view: the 7x7 board with rings, stack heights, face-up symbols
and the face-down cards the seat knows, plus dice, AP, scores, piles and the seat's hand."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
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
    """One line, 7 columns: the top card and the stack's height (an empty square: a dot; the
    ring shows as the cell's shade, not as text)."""
    cards = sq["cards"]
    if not cards:
        return Text("   ·   ", style="grey50")
    top = cards[-1]
    t = card_text(top["card"], top["up"])
    t.append(f"{len(cards)}" if len(cards) > 1 else "", style="yellow")
    t.pad_left((7 - t.cell_len) // 2)
    t.pad_right(7 - t.cell_len)
    return t


def render(view: dict[str, Any], seat: int | None) -> RenderableType:
    """The 7×7 grid one line per row (fits 80 columns), then the turn, scores and the hand."""
    cells = view["board"]
    board = Text("    " + "".join(f"c{c}".center(7) for c in range(7)) + "\n", style="bold")
    known_below: list[str] = []
    for r in range(7):
        board.append(f"r{r}  ", style="bold")
        for c in range(7):
            name = f"r{r}c{c}"
            if name not in cells:
                if (r, c) == (0, 0):
                    board.append(f"buy {view['buy_size']}".center(7), style="magenta")
                elif (r, c) == (6, 6):
                    board.append(f"mat {len(view['matched'])}".center(7), style="magenta")
                else:
                    board.append("   ╳   ", style="grey30")
                continue
            sq = cells[name]
            cell = _cell(sq)
            cell.stylize(RING_STYLE[sq["ring"]])
            if view.get("spied") == name:
                cell.stylize("underline")
            board.append_text(cell)
            below = [x["card"] for x in sq["cards"][:-1] if x["card"] is not None]
            if below:
                known_below.append(f"{name} " + "·".join(_face(x) for x in below))
        if r < 6:
            board.append("\n")

    info = Text()
    to_act = view["to_act"]
    if to_act is None:
        winners = view.get("winners") or []
        info.append("Game over: winner " + ", ".join(f"seat {w}" for w in winners), style="bold")
    else:
        info.append(f"seat {to_act}" + (" (you)" if to_act == seat else "") + " to act", style="bold")
        info.append(f" · {view['phase']}")
        rolls = view["rolls"]
        if rolls:
            info.append(" · dice " + " ".join(map(str, rolls)) + f" (sum {sum(rolls)})")
        if view["phase"] != "roll":
            info.append(f" · AP {view['ap']} of {view['ap_earned']} · next turn {view['next_turn_cost']} AP")
    info.append("\nM-points ")
    for i, p in enumerate(view["scores"]):
        info.append(f"{'▶' if i == to_act else ''}{i}:{p}{'(you)' if i == seat else ''} ")
    info.append(f"· target {view['target']}")
    if view.get("max_rounds"):
        info.append(f" · round {view['round'] + 1} of {view['max_rounds']}")
    info.append("\nHands " + " ".join(f"{i}:{n}" for i, n in enumerate(view["hand_sizes"])))
    info.append(f" · buy {view['buy_size']} · matched {len(view['matched'])} ")
    for cid in view["matched"][-6:]:
        info.append_text(card_text(cid, True))
    if known_below:
        info.append("\nKnown below the top: " + "  ".join(known_below), style="grey62")
    parts: list[RenderableType] = [board, info]
    if view.get("hand") is not None:
        hand = Text("Your hand: ", style="bold")
        for cid in view["hand"]:
            hand.append_text(card_text(cid, True))
            hand.append(" ")
        parts.append(hand)
    legend = Text(
        "[9♥] up  (9♥) down, known to you  [##] down · digit: height · shade: ring",
        style="grey50",
    )
    parts.append(legend)
    return Panel(Group(*parts), title="Metscri", subtitle=f"seat {seat}" if seat is not None else "spectator")


def _face(card_id: str) -> str:
    rank, suit = card_id[:-2], card_id[-2]
    return f"{rank}{SUIT_SYMBOL.get(suit, suit)}"
