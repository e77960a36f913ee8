"""Terminal picture of a Metscri view: the 7x7 board with rings, stack heights, face-up symbols
and the face-down cards the seat knows, plus dice, AP, scores, piles and the seat's hand."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from spillebord.texts import game_text

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


def render(view: dict[str, Any], seat: int | None, lang: str = "en") -> RenderableType:
    """The 7×7 grid one line per row (fits 80 columns), then the turn, scores and the hand;
    the words in ``lang`` (texts.json ``ui``, ``t_*`` for the terminal's)."""
    gt = game_text("metscri", lang)
    w = gt.word
    cells = view["board"]
    board = Text("    " + "".join(f"c{c}".center(7) for c in range(7)) + "\n", style="bold")
    known_below: list[str] = []
    for r in range(7):
        board.append(f"r{r}  ", style="bold")
        for c in range(7):
            name = f"r{r}c{c}"
            if name not in cells:
                if (r, c) == (0, 0):
                    board.append(w("t_buy", "buy {n}", n=str(view["buy_size"])).center(7), style="magenta")
                elif (r, c) == (6, 6):
                    board.append(
                        w("t_mat", "mat {n}", n=str(len(view["matched"]))).center(7), style="magenta"
                    )
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
        info.append(
            w("t_game_over", "Game over: winner ") + ", ".join(gt.seat(x) for x in winners), style="bold"
        )
    else:
        you = w("t_you", " (you)") if to_act == seat else ""
        info.append(w("t_to_act", "{seat}{you} to act", seat=gt.seat(to_act), you=you), style="bold")
        info.append(f" · {w('phase_' + view['phase'], view['phase'])}")
        rolls = view["rolls"]
        if rolls:
            info.append(
                w(
                    "t_dice",
                    " · dice {rolls} (sum {sum})",
                    rolls=" ".join(map(str, rolls)),
                    sum=str(sum(rolls)),
                )
            )
        if view["phase"] != "roll":
            info.append(
                w(
                    "t_ap",
                    " · AP {ap} of {earned} · next turn {cost} AP",
                    ap=str(view["ap"]),
                    earned=str(view["ap_earned"]),
                    cost=str(view["next_turn_cost"]),
                )
            )
    info.append("\n" + w("t_mpoints", "M-points "))
    for i, p in enumerate(view["scores"]):
        info.append(f"{'▶' if i == to_act else ''}{i}:{p}{w('t_you_short', '(you)') if i == seat else ''} ")
    info.append(w("t_target", "· target {n}", n=str(view["target"])))
    if view.get("max_rounds"):
        info.append(w("t_round", " · round {r} of {m}", r=str(view["round"] + 1), m=str(view["max_rounds"])))
    info.append(
        "\n" + w("t_hands", "Hands ") + " ".join(f"{i}:{n}" for i, n in enumerate(view["hand_sizes"]))
    )
    info.append(
        w("t_buy_matched", " · buy {n} · matched {m} ", n=str(view["buy_size"]), m=str(len(view["matched"])))
    )
    for cid in view["matched"][-6:]:
        info.append_text(card_text(cid, True))
    if known_below:
        info.append("\n" + w("t_known", "Known below the top: ") + "  ".join(known_below), style="grey62")
    parts: list[RenderableType] = [board, info]
    if view.get("hand") is not None:
        hand = Text(w("t_your_hand", "Your hand: "), style="bold")
        for cid in view["hand"]:
            hand.append_text(card_text(cid, True))
            hand.append(" ")
        parts.append(hand)
    legend = Text(
        w("t_legend", "[9♥] up  (9♥) down, known to you  [##] down · digit: height · shade: ring"),
        style="grey50",
    )
    parts.append(legend)
    subtitle = gt.seat(seat) if seat is not None else w("t_spectator", "spectator")
    return Panel(Group(*parts), title="Metscri", subtitle=subtitle)


def _face(card_id: str) -> str:
    rank, suit = card_id[:-2], card_id[-2]
    return f"{rank}{SUIT_SYMBOL.get(suit, suit)}"
