"""Terminal picture of a Fuldrigger view, and the one-line summaries of a turn's events.

:func:`render` draws, in at most 100 columns: the status line, the companies, the **map** (every
lane as a chain of its squares between two junctions, hazards as glyphs, squares with ships in
the owners' colours, the ports by their roadsteads with fortresses and ships), each fleet, the
markets where the seat's ships lie, the chance cards, an attack in progress, the offers and the
**draft** being built (``view['draft']``).

:func:`summarise_events` turns a turn's events into a few lines: a move of 20 squares is one
line ("Seat 1's s4 sails KAN1 → … → NEWF (5 squares; head wind on NAN4)") instead of 20.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from spillebord.texts import GameText, game_text

from . import data as D

COLOURS = ("red", "blue", "green", "yellow")
COLOUR_NAMES = ("rød", "blå", "grøn", "gul")
GLYPH = {
    D.TAILWIND: "»",
    D.HEADWIND: "«",
    D.STORM: "ϟ",
    D.ICEBERG: "▲",
    D.CALM: "≈",
    D.PIRATES: "☠",
}
"""A hazard square's mark on the map (a reef shows its letter)."""
LEGEND = "NAN[·ϟ·]: NAN1–3 · 0–3 ships · ϟ storm ▲ ice » tail « head ≈ calm A–J reef ☠ pirates ■ fort"


def _colour(seat: int) -> str:
    return COLOURS[seat % 4]


def _glyph(code: str) -> str:
    i = D.INDEX[code]
    h = D.HAZARD_LIST[i]
    if h is None:
        return ""
    return D.REEF_LETTER[i] if h == D.REEF else GLYPH.get(h, "?")


def _prefix(codes: Sequence[str]) -> str:
    """The letters the inner squares of a lane share (``NAN`` for NAN1 … NAN6)."""
    heads = {c.rstrip("0123456789") for c in codes}
    return heads.pop() if len(heads) == 1 else ""


def _junction(code: str, occupied: dict[str, list[int]], path: set[str]) -> Text:
    t = Text(code + _glyph(code))
    if code in occupied:
        t.stylize(f"bold reverse {_colour(occupied[code][0])}")
    elif code in path:
        t.stylize("underline")
    return t


def _lane(chain: Sequence[str], occupied: dict[str, list[int]], path: set[str]) -> Text:
    """``KANW─NAN[·ϟ·«▲·]─NEWF``: the lane's end junctions by name, its inner squares one
    character each in order (NAN1 … NAN6): a hazard's glyph, ``·`` for open sea, or the
    digit of the seat whose ship lies there, reversed in its colour."""
    inner = chain[1:-1]
    t = _junction(chain[0], occupied, path)
    if not inner:
        t.append("─", style="dim")
        t.append_text(_junction(chain[-1], occupied, path))
        return t
    t.append("─" + _prefix(inner) + "[", style="dim")
    for code in inner:
        owners = occupied.get(code)
        if owners:
            t.append(str(owners[0]), style=f"bold reverse {_colour(owners[0])}")
        else:
            t.append(_glyph(code) or "·", style="underline" if code in path else "")
    t.append("]─", style="dim")
    t.append_text(_junction(chain[-1], occupied, path))
    return t


def _ports_line(view: dict[str, Any], occupied: dict[str, list[int]], only_busy: bool) -> Text:
    forts: dict[str, int] = view["fortresses"]
    homes = {p["home"]: p["seat"] for p in view["players"] if p["home"]}
    t = Text()
    for code, port in D.PORTS.items():
        if only_busy and code not in occupied and code not in forts:
            continue
        if t:
            t.append(" ")
        piece = Text(code)
        if code in occupied:
            piece.stylize(f"bold reverse {_colour(occupied[code][0])}")
        elif code in homes:
            piece.stylize(f"underline {_colour(homes[code])}")
        t.append_text(piece)
        t.append("@" + port.roadstead, style="dim")
        if code in forts:
            t.append("■", style=f"bold {_colour(forts[code])}")
    return t


class MapPicture:
    """The map. From 100 columns on: all 42 lanes between junction squares (see :func:`_lane`)
    in as many columns as fit, then every port at its roadstead with its fortress. Narrower
    (an 80-column terminal): only the lanes and ports where ships lie, so that the picture,
    the last moves and the list still fit one screen."""

    FULL_WIDTH = 100

    def __init__(self, view: dict[str, Any], gt: GameText | None = None) -> None:
        self.gt = gt or game_text("fuldrigger")
        occupied: dict[str, list[int]] = {}
        for s in view["ships"]:
            occupied.setdefault(s["at"], []).append(s["owner"])
        self.path = set(view.get("path") or [])
        self.occupied = occupied
        self.view = view
        self.lanes = [_lane([D.CODES[i] for i in chain], occupied, self.path) for chain in D.LANES.values()]
        busy = set(occupied) | self.path
        self.busy = [
            lane
            for lane, chain in zip(self.lanes, D.LANES.values(), strict=True)
            if any(D.CODES[i] in busy and not D.IS_PORT[i] for i in chain[1:-1])
        ]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        full = options.max_width >= self.FULL_WIDTH
        lanes = self.lanes if full else self.busy
        w = self.gt.word
        head = Text(w("t_map", "Map ") if full else w("t_lanes", "Lanes with ships "), style="bold")
        head.append(w("t_legend", LEGEND), style="dim")
        head.truncate(options.max_width, overflow="ellipsis")
        yield head
        if lanes:
            cell = max(t.cell_len for t in self.lanes) + 1
            cols = max(1, (options.max_width + 1) // cell)
            rows = -(-len(lanes) // cols)
            cols = -(-len(lanes) // rows)
            grid = Table.grid(padding=(0, 1))
            for _ in range(cols):
                grid.add_column(no_wrap=True, overflow="crop")
            for r in range(rows):
                grid.add_row(
                    *[lanes[c * rows + r] if c * rows + r < len(lanes) else Text("") for c in range(cols)]
                )
            yield grid
        yield _ports_line(self.view, self.occupied, only_busy=not full)


def _ship_text(s: dict[str, Any]) -> Text:
    colour = _colour(s["owner"])
    t = Text()
    t.append(s["id"], style=f"bold {colour}")
    t.append("@" + s["at"], style=colour)
    if s["privateer"]:
        t.append("☠", style=colour)
    if s["cargo"]:
        c = s["cargo"]
        t.append(f":{c['good']}{c['price']}({c['odometer']})", style=colour)
    if s["becalmed"]:
        t.append("~", style="cyan")
    if s.get("moved"):
        t.append("'", style="dim")
    return t


def _side(g: dict[str, Any], gt: GameText | None = None) -> str:
    if gt is None or gt.english:
        parts = [f"{g['cash']} ducats"] if g["cash"] else []
        parts += [f"fort {c}" for c in g["fortresses"]] + [f"ship {s}" for s in g["ships"]]
        parts += [f"load {ld}" for ld in g.get("loads", ())]
        return ", ".join(parts) or "nothing"
    w = gt.word
    parts = [w("t_side_cash", "{n} ducats", n=str(g["cash"]))] if g["cash"] else []
    parts += [w("t_side_fort", "fort {x}", x=c) for c in g["fortresses"]]
    parts += [w("t_side_ship", "ship {x}", x=s) for s in g["ships"]]
    parts += [w("t_side_load", "load {x}", x=str(ld)) for ld in g.get("loads", ())]
    return ", ".join(parts) or w("nothing", "nothing")


def offer_text(o: dict[str, Any], gt: GameText | None = None) -> str:
    """One offer (or the draft) in a line: who gives what, the truce and its expiry (in
    ``gt``'s language, English without)."""
    if gt is None or gt.english:
        truce = f"; truce {o['truce_rounds']} rounds" if o["truce_rounds"] else ""
        counter = f" (counter to {o['counter_of']})" if o.get("counter_of") else ""
        return (
            f"seat {o['from']} gives {_side(o['from_gives'])}; seat {o['to']} gives {_side(o['to_gives'])}"
            f"{truce}{counter}"
        )
    w = gt.word
    truce = w("t_truce_part", "; truce {n} rounds", n=str(o["truce_rounds"])) if o["truce_rounds"] else ""
    counter = w("t_counter", " (counter to {n})", n=str(o["counter_of"])) if o.get("counter_of") else ""
    gives = [
        w("t_gives", "{who} gives {side}", who=gt.seat(o[k]), side=_side(o[f"{k}_gives"], gt))
        for k in ("from", "to")
    ]
    return "; ".join(gives) + truce + counter


def render(view: dict[str, Any], seat: int | None, lang: str = "en") -> RenderableType:
    """The picture of ``view`` for ``seat``; it fits the width it is drawn in (see
    :class:`Picture`); its words in ``lang`` (texts.json ``ui``)."""
    return Picture(view, seat, lang)


class Picture:
    """Status, companies, map, fleets, then what is going on (markets, cards, an attack,
    offers and the draft). From 100 columns on the whole map; narrower, a picture short
    enough for an 80×24 terminal (the lanes where ships lie, no markets or legend)."""

    def __init__(self, view: dict[str, Any], seat: int | None, lang: str = "en") -> None:
        self.view, self.seat = view, seat
        self.gt = game_text("fuldrigger", lang)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        view, seat, gt = self.view, self.seat, self.gt
        w = gt.word
        width = options.max_width
        wide = width >= MapPicture.FULL_WIDTH
        yield _crop(_status(view, gt), width)
        yield _companies(view, seat, header=wide, gt=gt)
        yield MapPicture(view, gt)
        for p in view["players"]:
            mine = [s for s in view["ships"] if s["owner"] == p["seat"]]
            if mine:
                line = Text(f"{p['seat']}: ", style=f"bold {_colour(p['seat'])}")
                line.append_text(Text(" ").join(_ship_text(s) for s in mine))
                yield line
        if wide:
            here = [c for c in D.PORTS if any(s["owner"] == seat and s["at"] == c for s in view["ships"])]
            for code in here[:2]:
                entries = " · ".join(
                    f"{g} {p} {'K' * k}{'S' * sl}" for g, (p, k, sl) in D.PRICES[code].items()
                )
                yield _crop(Text(w("t_market", "{code} market: ", code=code) + entries), width)
        ch = view["chance"]
        cards = []
        if ch["round_card"]:
            c = D.CARD_BY_NUM[ch["round_card"]]
            cards.append(f"C{c.num:02d} {c.title}: {w(f'chance_{c.num}', c.text)}")
        cards += [
            f"C{n:02d} " + w("t_race", "race to {city}", city=D.CARD_BY_NUM[n].cities[0])  # type: ignore[index]
            for n in ch["races"]
        ]
        if cards:
            yield _crop(Text(w("t_cards", "Cards: ") + "; ".join(cards), style="magenta"), width)
        at = view["attack"]
        if at:
            attack = w(
                "t_attack",
                "⚔ {a} attacks {d} at {square}: {units} unit(s); privateers {joined}",
                a=gt.seat(view["turn"]),
                d=gt.seat(at["defender"]),
                square=str(at["square"]),
                units=str(at["units"]),
                joined=", ".join(at["joined"]) or w("t_none_yet", "none yet"),
            )
            yield Text(attack, style="bold red")
        # The offers touching the seat first; a few lines at most (the rest are counted).
        offers = sorted(view["offers"], key=lambda o: seat not in (o["from"], o["to"]))
        for of in offers[:3]:
            head = w("t_offer_line", "Offer {id} (until round {n}): ", id=str(of["id"]), n=str(of["expires"]))
            yield _crop(Text(head + offer_text(of, gt)), width)
        if len(offers) > 3:
            yield Text(w("t_more_offers", "… and {n} more open offers", n=str(len(offers) - 3)), style="dim")
        if view["draft"]:
            yield Text(w("t_draft", "Draft: ") + offer_text(view["draft"], gt), style="bold cyan")
        if view["truces"]:
            truces = ", ".join(
                w("t_truce_item", "{a}–{b} to round {n}", a=str(a), b=str(b), n=str(r))
                for a, b, r in view["truces"]
            )
            yield _crop(Text(w("t_truces", "Truces: ") + truces, style="green"), width)
        if wide:
            legend = "ship@square:good price(squares carried)  ☠ privateer  ~ becalmed  ' moved this turn"
            yield Text(w("t_wide_legend", legend), style="dim")


def _crop(t: Text, width: int) -> Text:
    t.truncate(width, overflow="ellipsis")
    t.no_wrap = True
    return t


def _status(view: dict[str, Any], gt: GameText) -> Text:
    w = gt.word
    status = Text()
    status.append(
        w("t_round", "Round {r}/{m}", r=str(view["round"]), m=str(view["rounds_limit"])), style="bold"
    )
    phase = w(f"phase_{view['phase']}", str(view["phase"]))
    status.append(
        w(
            "t_turn_of",
            " · {seat}'s turn · M {m} · {phase}",
            seat=gt.seat(view["turn"]),
            m=str(view["M"]),
            phase=phase,
        )
    )
    if view["moving"]:
        status.append(
            w("t_under_way", " · {ship} under way, {n} left", ship=str(view["moving"]), n=str(view["mp"]))
        )
    if view["to_act"] is not None:
        status.append(w("t_to_act", " · {seat} to act", seat=gt.seat(view["to_act"])), style="bold")
        if view["phase"] == "window":
            status.append(w("t_window", " (offer, answer, or pass)"))
    if view.get("winners") is not None:
        status.append(
            w("t_game_over", " · GAME OVER, winner: {w}", w=str(view["winners"])), style="bold green"
        )
    return status


def _companies(view: dict[str, Any], seat: int | None, header: bool, gt: GameText | None = None) -> Table:
    gt = gt or game_text("fuldrigger")
    w = gt.word
    t = Table(box=None, header_style="bold", pad_edge=False, padding=(0, 1), show_header=header)
    for col in ("Seat", "Home", "Cash", "Wealth", "Ships", "Fortresses", "Reefs", "Depots"):
        t.add_column(w(f"col_{col.lower()}", col), no_wrap=True)
    for p in view["players"]:
        name = f"{p['seat']} {COLOUR_NAMES[p['seat'] % 4]}" + (
            w("t_you", " (you)") if p["seat"] == seat else ""
        )
        if p["eliminated"]:
            name += w("t_out", " out")
        if p["seat"] == view["turn"] and view["to_act"] is not None:
            name = "▶ " + name
        depots = " ".join(
            f"{port}:{'+'.join(ld['good'] for ld in loads)}" for port, loads in p.get("depots", {}).items()
        )
        cells = [str(p["cash"]), str(p["wealth"]), str(p["ships"])]
        if not header:
            cells = [
                w("t_cash", "cash {n}", n=str(p["cash"])),
                w("t_wealth", "wealth {n}", n=str(p["wealth"])),
                w("t_ships", "{n} ships", n=str(p["ships"])),
            ]
        t.add_row(
            Text(name, style=f"bold {_colour(p['seat'])}"),
            p["home"] or "-",
            *cells,
            " ".join(p["fortresses"]),
            "".join(p["reefs"]),
            depots,
        )
    return t


# --------------------------------------------------------------------------- event summaries

_STEP_NOTES = {
    "tailwind": lambda e: f"tail wind on {e['square']}",
    "headwind": lambda e: f"head wind on {e['square']}",
    "storm": lambda e: f"storm on {e['square']} ridden out ({e['roll']})",
    "iceberg": lambda e: f"iceberg on {e['square']} passed ({e['roll']})",
    "calm": lambda e: f"wind on {e['square']} ({e['roll']})",
    "reef_known": lambda e: f"reef {e['reef']} passed and charted ({e['roll']})",
    "pirates": lambda e: f"pirates on {e['square']} slipped ({e['roll']})",
    "plundered": lambda e: f"cargo plundered on {e['square']} ({e['roll']})",
    "becalmed": lambda e: f"becalmed on {e['square']} ({e['roll']})",
}
"""Events that happen on a square of a move: they join the move's one line."""


def _route(squares: list[str]) -> str:
    return " → ".join(squares) if len(squares) <= 3 else f"{squares[0]} → … → {squares[-1]}"


def summarise_events(events: Iterable[dict[str, Any]], gt: GameText | None = None) -> list[str]:
    """The events as lines for a person: each ship's run of steps becomes one line with its
    route, its number of squares and what happened on the way; other events keep their text.
    With ``gt`` (another language than English) the lines are in its language: the run's from
    texts.json ``ui`` (``t_sails``, ``t_note_*``), the others from the event templates."""
    out: list[str] = []
    run: dict[str, Any] | None = None

    def flush() -> None:
        nonlocal run
        if run is not None:
            n = len(run["squares"])
            notes = "; ".join(run["notes"])
            if gt is None:
                out.append(
                    f"Seat {run['seat']}'s {run['ship']} sails {_route(run['squares'])} "
                    f"({n} square{'s' if n != 1 else ''}{'; ' + notes if notes else ''})."
                )
            else:
                who = gt.seat(run["seat"])
                line = gt.word(
                    "t_sails",
                    "{who}'s {ship} sails {route} ({n} {squares}{notes}).",
                    who=who[:1].upper() + who[1:],
                    ship=run["ship"],
                    route=_route(run["squares"]),
                    n=n,
                    squares=gt.word("t_square_1", "square") if n == 1 else gt.word("t_square_n", "squares"),
                    notes="; " + notes if notes else "",
                )
                out.append(line)
            run = None

    def note(e: dict[str, Any]) -> str:
        kind = str(e["kind"])
        if gt is None:
            return _STEP_NOTES[kind](e)
        data = {k: e.get(k) for k in ("square", "roll", "reef")}
        return gt.word(f"t_note_{kind}", _STEP_NOTES[kind](e), **data)

    def line(e: dict[str, Any]) -> str | None:
        return e.get("text") if gt is None else gt.event_line(e)

    for e in events:
        kind = e.get("kind")
        if kind == "sail" or kind in _STEP_NOTES:
            if run is None or run["ship"] != e.get("ship"):
                flush()
                run = {"ship": e.get("ship"), "seat": e.get("seat"), "squares": [], "notes": []}
            if kind in ("sail", "becalmed"):
                run["squares"].append(e["square"])
            else:
                run["notes"].append(note(e))
            continue
        flush()
        if kind == "lost" and e.get("ship"):
            out.append((e.get("text", "") if gt is None else line(e)) or "")
        elif text := line(e):
            out.append(text)
    flush()
    return out
