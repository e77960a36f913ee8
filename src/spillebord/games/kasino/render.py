"""Terminal picture of a Kasino view (Rich), in the player's language: the words are the
game's texts.json ``ui`` ones (``t_*``, ``col_*``: the terminal's), English as written here."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from spillebord.texts import game_text

SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
COLOURS = {"S": "bold white", "C": "bold white", "H": "bold red", "D": "bold red"}


def card_text(cid: str) -> Text:
    suit = cid[-1]
    return Text(f"[{cid[:-1]}{SYMBOLS[suit]}]", style=COLOURS[suit])


def cards_text(ids: list[str]) -> Text:
    t = Text()
    for i, cid in enumerate(ids):
        if i:
            t.append(" ")
        t.append_text(card_text(cid))
    return t


def render(view: dict[str, Any], seat: int | None, lang: str = "en") -> RenderableType:
    gt = game_text("kasino", lang)
    w = gt.word
    n = view["seats"]
    head = Text(
        w(
            "t_head",
            "Kasino — round {round}, hand {hand}/{hands}{last} — dealer {seat}, stock {stock}",
            round=view["round"],
            hand=view["hand_no"],
            hands=view["hands_per_round"],
            last=w("t_last", "  (sidsten)") if view["last_hand"] else "",
            seat=gt.seat(view["dealer"]),
            stock=view["stock"],
        ),
        style="bold",
    )
    table = Table.grid(padding=(0, 2))
    table.add_column()
    table.add_column()
    loose = view["table"]["loose"]
    table.add_row(
        Text(w("table", "Table"), style="bold green"),
        cards_text(loose) if loose else Text(w("t_empty", "(empty)"), style="dim"),
    )
    for b in view["table"]["builds"]:
        line = f"{{id}}: {b['kind']} build of {{value}} ({{seat}})  "
        t = Text(w(f"t_build_{b['kind']}", line, id=b["id"], value=b["value"], seat=gt.seat(b["owner"])))
        for i, g in enumerate(b["groups"]):
            if i:
                t.append(" | ")
            t.append_text(cards_text(g))
        table.add_row(Text(w("t_build", "Build"), style="bold yellow"), t)
    players = Table(
        show_header=True, header_style="bold", box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1)
    )
    for col in ("seat", "hand", "cards", "♠", "aces", "casino", "sweeps", "pts"):
        name = w("pts", col) if col == "pts" else col if col == "♠" else w(f"col_{col}", col)
        players.add_column(name, no_wrap=True, justify="left" if col in ("seat", "hand") else "right")
    for s in range(n):
        p = view["piles"][s]
        if seat == s and view["hand"] is not None:
            hand: Text = cards_text(view["hand"])
        else:
            hand = Text(" ".join(["[##]"] * view["hand_sizes"][s]), style="dim")
        casinos = ("♦10 " if p["big_casino"] else "") + ("♠2" if p["little_casino"] else "")
        mark = "▶ " if view["to_act"] == s else "  "
        players.add_row(
            f"{mark}{s}" + (w("you", " you") if seat == s else ""),
            hand,
            str(p["count"]),
            str(p["spades"]),
            str(p["aces"]),
            casinos,
            str(p["sweeps"]),
            str(view["totals"][s]),
        )
    parts: list[RenderableType] = [head, table, players]
    if view["to_act"] is not None and view["must_capture"][view["to_act"]]:
        line = "{seat} built last turn and must capture if it can"
        parts.append(Text(w("t_must_capture", line, seat=gt.seat(view["to_act"])), style="italic"))
    if view.get("result") is not None:
        parts.append(
            Text(
                w("t_final", "Final: ")
                + ", ".join(f"{gt.seat(i)}: {r:g}" for i, r in enumerate(view["result"])),
                style="bold",
            )
        )
    return Panel(Group(*parts), title="Kasino", border_style="green")
