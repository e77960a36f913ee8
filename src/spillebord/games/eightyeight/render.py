"""Terminal picture of 88: every panel as two seven-segment digits drawn in Rich.

Straight pieces are drawn white; each L piece gets its own colour, so the two segments of
one L are visibly one piece. Uncovered segments are faint dots.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from spillebord.texts import game_text

L_COLOURS = ("bright_cyan", "bright_magenta", "bright_yellow", "bright_green")
STRAIGHT = "bold white"
OFF = "grey23"


def _digit_rows(items: list[str], l_start: int) -> tuple[list[Text], int]:
    """Five rows of one digit from its placement names; returns the rows and L pieces used."""
    style: dict[str, str] = {}
    n_l = 0
    for it in items:
        if len(it) == 2:
            colour = L_COLOURS[(l_start + n_l) % len(L_COLOURS)]
            n_l += 1
            for c in it:
                style[c] = f"bold {colour}"
        else:
            style[it] = STRAIGHT

    def h(seg: str) -> Text:
        if seg in style:
            return Text(" ━━━━ ", style=style[seg])
        return Text(" ···· ", style=OFF)

    def v(left: str, right: str) -> Text:
        t = Text()
        t.append("┃" if left in style else "·", style=style.get(left, OFF))
        t.append("    ")
        t.append("┃" if right in style else "·", style=style.get(right, OFF))
        return t

    return [h("a"), v("f", "b"), h("g"), v("e", "c"), h("d")], n_l


def panel_picture(tens: str | None, units: str | None) -> Text:
    """Both digits side by side (hidden panels as question marks)."""
    if tens is None or units is None:
        return Text("\n".join(["  ??      ??  "] * 5), style="grey50")
    left, used = _digit_rows(tens.split(), 0)
    right, _ = _digit_rows(units.split(), used)
    out = Text()
    for i in range(5):
        out.append_text(left[i])
        out.append("  ")
        out.append_text(right[i])
        if i < 4:
            out.append("\n")
    return out


def _track(pos: int, length: int) -> Text:
    t = Text()
    for i in range(length + 1):
        t.append("●" if i == pos else "○", style="bold red" if i == pos else "grey50")
    return t


def render(view: dict[str, Any], seat: int | None, lang: str = "en") -> RenderableType:
    """The seat's view: header (round, setter, cards, target), one box per panel, last round;
    the words in ``lang`` (texts.json ``ui``, ``t_*`` for the terminal's)."""
    gt = game_text("88", lang)
    w = gt.word
    phase = view["phase"]
    head = Text()
    head.append("88 — Digital Dramatik", style="bold")
    rt = view.get("rounds_total")
    head.append(w("t_round", "   round {r}", r=str(view["round"])) + (f"/{rt}" if rt else ""))
    head.append(w("t_setter", "   setter: {seat}", seat=gt.seat(view["setter"])))
    if view["cards"]:
        head.append(w("t_cards", "   cards: "))
        for c in view["cards"]:
            head.append(f"[{c}]", style="bold black on white")
            head.append(" ")
    if view["target"] is not None:
        head.append(w("t_target", "   target: "))
        head.append(f"{view['target']:02d}", style="bold red")
    head.append(w("t_deck", "   deck {n}", n=str(view["deck_size"])))
    head.append(w("t_phase", "   phase: {phase}", phase=w(f"t_phase_{phase}", str(phase))), style="italic")
    if view["to_act"] is not None:
        head.append(w("t_to_act", "   to act: {seat}", seat=gt.seat(view["to_act"])), style="bold green")

    def option(name: Any) -> str:
        """An option (rearrange) by its name in the language; in English as the engine says it."""
        return str(name) if gt.english else gt.term("option", name)

    boxes = Table.grid(padding=(0, 1))
    row = []
    for p in view["players"]:
        s = p["seat"]
        body = Text()
        body.append_text(panel_picture(p["tens"], p["units"]))
        body.append("\n")
        if p["number"] is not None:
            body.append(w("t_shows", "shows {n}", n=f"{p['number']:02d}"), style="bold")
            if p["distance"] is not None:
                body.append(f"  d {p['distance']}")
            supply = w(
                "t_supply", "supply: {l} L, {s} straight", l=str(p["supply"]["L"]), s=str(p["supply"]["S"])
            )
            body.append("\n" + supply)
        else:
            body.append(w("t_laid", "laid") if p["laid"] else w("not_laid", "not laid yet"), style="grey50")
        body.append("\n")
        if view["scoring"] == "pegs":
            body.append_text(_track(p["peg"], view["track_length"]))
        else:
            body.append(w("t_points", "points {n}", n=str(p["points"])))
        title = (
            gt.seat(s)
            + (w("t_you", " (you)") if s == seat else "")
            + (w("t_setter_mark", " ★setter") if s == view["setter"] else "")
        )
        style = "green" if view["to_act"] == s else ("red" if view.get("winner") == s else "white")
        row.append(Panel(body, title=title, border_style=style, expand=False))
    boxes.add_row(*row)

    parts: list[RenderableType] = [head, boxes]
    if view.get("pending") and view["pending"].get("number") is not None:
        pd = view["pending"]
        what = option(pd["option"]) if pd["option"] else w("t_lay", "lay")
        tens = w("t_tens", ", tens {t}", t=str(pd["tens"])) if pd["tens"] else ""
        parts.append(Text(w("t_pending", "pending: {what} {n}", what=what, n=f"{pd['number']:02d}") + tens))
    if view["round_moves"]:
        parts.append(
            Text(
                w("t_this_round", "this round: ")
                + ", ".join(
                    f"{gt.seat(m['seat'])} {option(m['option'])} → {m['number']:02d}"
                    for m in view["round_moves"]
                )
            )
        )
    lr = view.get("last_round")
    if lr:
        t = Text(w("t_last_round", "last round: target {n}; ", n=f"{lr['target']:02d}"))
        pairs = zip(lr["numbers"], lr["distances"], strict=True)
        t.append(", ".join(f"{gt.seat(i)} {n:02d} (d {d})" for i, (n, d) in enumerate(pairs)))
        if "awards" in lr:
            t.append(w("t_steps", "; steps ") + " ".join(f"+{a}" for a in lr["awards"]))
        else:
            t.append(w("t_penalties", "; penalties ") + " ".join(str(q) for q in lr["penalties"]))
        parts.append(t)
    if view.get("result"):
        parts.append(Text(w("t_game_over", "game over: ") + str(view["result"]), style="bold red"))
    return Group(*parts)
