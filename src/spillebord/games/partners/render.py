"""Terminal picture of a Partners view: the ring of 60 squares as a 16×16 square loop.

Yellow's segment runs along the top (its start field ▲ in the top-left corner), Red's down the
right, Blue's along the bottom, Green's up the left; an empty square shows its number 1–14 in
its segment's colour (so the square "r5" is the 5 on the red side), a piece shows as its colour's
letter with ● (one piece) or the count of a protected group. Each house runs diagonally inwards
from its start field; the start circles are counted in the middle, the hand is listed below.
"""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from spillebord.texts import game_text

from .data import CARD_TYPES, COLOURS, LETTERS, TRACK, TRACK_IDS

STYLE = {"yellow": "bold yellow", "red": "bold red", "blue": "bold blue", "green": "bold green"}
SIZE = 16


def _cell(i: int) -> tuple[int, int]:
    """(row, column) of track position T(i) on the square loop."""
    side, k = divmod(i, 15)
    if side == 0:
        return 0, k
    if side == 1:
        return k, SIZE - 1
    if side == 2:
        return SIZE - 1, SIZE - 1 - k
    return SIZE - 1 - k, 0


def _house_cell(colour: int, k: int) -> tuple[int, int]:
    d = k + 1
    return [(d, d), (d, SIZE - 1 - d), (SIZE - 1 - d, SIZE - 1 - d), (SIZE - 1 - d, d)][colour]


def card_text(code: str) -> Text:
    t = CARD_TYPES[code]
    style = "bold red" if t.start else "bold"
    return Text(f"[{t.symbol}]", style=style)


def render(view: dict[str, Any], seat: int | None, lang: str = "en") -> RenderableType:
    """The loop, and beside it the turn, the deal, the hands; the words in ``lang``."""
    gt = game_text("partners", lang)
    w = gt.word

    def col(i: int) -> str:
        return w(COLOURS[i], COLOURS[i])

    grid: list[list[Text]] = [[Text("   ") for _ in range(SIZE)] for _ in range(SIZE)]
    track: dict[str, list[Any]] = view.get("track", {})
    size = view.get("fields_per_segment", 14)
    for i in range(TRACK):
        r, c = _cell(i)
        sid = TRACK_IDS[i]
        if i % 15 > size:  # a smaller board (option fields_per_segment) lacks this square
            continue
        if sid in track:
            colour, n = track[sid]
            grid[r][c] = Text(f"{colour[0].upper()}{n if n > 1 else '●'} ", style=STYLE[colour])
        elif i % 15 == 0:
            grid[r][c] = Text(" ▲ ", style=STYLE[COLOURS[i // 15]].replace("bold ", "dim "))
        else:  # an empty numbered square shows its number, in its segment's colour
            grid[r][c] = Text(f"{i % 15:>2} ", style="dim " + COLOURS[i // 15])
    for ci, colour in enumerate(COLOURS):
        for k, full in enumerate(view.get("houses", {}).get(colour, [False] * 4)):
            r, c = _house_cell(ci, k)
            grid[r][c] = Text(" ● " if full else " ○ ", style=STYLE[colour] if full else "dim " + colour)
    centre = [("", w("t_circles", "start circles:"))] + [
        (colour, f"{col(i)}: {view.get('circles', {}).get(colour, 0)}") for i, colour in enumerate(COLOURS)
    ]
    for j, (colour, line) in enumerate(centre):
        r = 6 + j
        txt = line.center(21)
        for k in range(7):
            part = txt[k * 3 : k * 3 + 3]
            grid[r][5 + k] = Text(part, style=STYLE.get(colour, "italic"))
    board = Table.grid(padding=0)
    for _ in range(SIZE):
        board.add_column()
    for row in grid:
        board.add_row(*row)

    info = Text()
    to_act = view.get("turn")
    phase = view.get("phase", "")
    if view.get("result"):
        winner = view.get("winner") or []
        if winner:
            won = w("t_win", "Game over: {a} and {b} win", a=col(winner[0]), b=col(winner[1]))
            info.append(won + "\n", style="bold")
        else:
            info.append(w("t_draw", "Game over: a draw") + "\n", style="bold")
    elif to_act is not None:
        info.append(
            w("t_to_act", "{colour} to act ", colour=col(to_act).capitalize()), style=STYLE[COLOURS[to_act]]
        )
        info.append(f"({w(phase, phase)})")
        if phase == "split":
            info.append(w("t_split_left", ", {n} steps of the 7 left", n=str(view.get("split_left"))))
        info.append("\n")
    info.append(
        w(
            "t_dealer",
            "Dealer {colour}, deal {k} of the cycle, {n} deals so far; deck {d} cards",
            colour=col(view.get("dealer", 0)),
            k=str(view.get("deal_in_cycle")),
            n=str(view.get("deals")),
            d=str(view.get("deck_size")),
        )
        + "\n"
    )
    sizes = view.get("hand_sizes", [])
    info.append(w("t_hands", "Hands: ") + ", ".join(f"{col(s)} {n}" for s, n in enumerate(sizes)))
    if any(view.get("sat_out", [])):
        info.append(
            w("t_laid", "; laid down: ") + ", ".join(col(s) for s, x in enumerate(view["sat_out"]) if x)
        )
    info.append("\n")
    discard = view.get("discard", [])
    if discard:
        info.append(w("t_played", "Played: "))
        for code in discard[-8:]:
            info.append_text(card_text(code))
            info.append(" ")
        info.append("\n")
    if seat is not None and "hand" in view:
        me = view.get("colour_seat", seat)
        hands: dict[str, Any] = view.get("hands") or {str(me): view}
        if len(hands) > 1:  # one person plays both colours of a partnership: both hands (R10.3)
            a, b = (col(int(k)) for k in hands)
            info.append(w("t_you_play", "You play {a} and {b}.", a=a, b=b) + "\n")
        else:
            you = w(
                "t_you_are",
                "You are {colour} ({letter}), partner {partner}.",
                colour=col(me),
                letter=LETTERS[me],
                partner=col((me + 2) % 4),
            )
            info.append(you + "\n")
        for key, own in hands.items():
            colour = COLOURS[int(key)]
            if len(hands) > 1:
                info.append(
                    f"{col(int(key)).capitalize()}{' ▶' if int(key) == to_act else ''}: ", style=STYLE[colour]
                )
            else:
                info.append(w("t_hand", "Hand: "))
            for code in own["hand"]:
                info.append_text(card_text(code))
                info.append(" ")
            if own.get("giving"):
                info.append(w("t_giving", " (giving {c})", c=CARD_TYPES[own["giving"]].symbol))
            if own.get("gave"):
                given, got = CARD_TYPES[own["gave"]].symbol, CARD_TYPES[own["received"]].symbol
                info.append(w("t_gave", " (gave {a}, received {b})", a=given, b=got))
            info.append("\n")
        info.rstrip()
    # the info beside the 48-column loop: the picture fits 80×24 with room for the prompt
    layout = Table.grid(padding=(0, 1))
    layout.add_column(no_wrap=True)
    layout.add_column(ratio=1)
    layout.add_row(board, info)
    return Panel(layout, title="Partners")
