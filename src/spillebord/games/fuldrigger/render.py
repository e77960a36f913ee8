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

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

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
LEGEND = "ϟ storm ▲ iceberg » tail wind « head wind ≈ calm A–J reef ☠ pirates ■ fort"


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


def _square(code: str, label: str, occupied: dict[str, list[int]], path: set[str]) -> Text:
    t = Text(label + _glyph(code))
    owners = occupied.get(code)
    if owners:
        t.stylize(f"bold reverse {_colour(owners[0])}")
    elif code in path:
        t.stylize("underline")
    return t


def _lane(chain: Sequence[str], occupied: dict[str, list[int]], path: set[str]) -> Text:
    inner = chain[1:-1]
    pre = _prefix(inner)
    t = Text()
    t.append_text(_square(chain[0], chain[0], occupied, path))
    if not inner:
        t.append("─", style="dim")
        t.append_text(_square(chain[-1], chain[-1], occupied, path))
        return t
    t.append("─" + pre, style="dim")
    for k, code in enumerate(inner):
        if k:
            t.append(" ")
        t.append_text(_square(code, code[len(pre) :] if pre else code, occupied, path))
    t.append("─", style="dim")
    t.append_text(_square(chain[-1], chain[-1], occupied, path))
    return t


def _ports_line(view: dict[str, Any], occupied: dict[str, list[int]]) -> Text:
    forts: dict[str, int] = view["fortresses"]
    homes = {p["home"]: p["seat"] for p in view["players"] if p["home"]}
    t = Text()
    for k, (code, port) in enumerate(D.PORTS.items()):
        if k:
            t.append("  ")
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
    """The map: the 42 lanes between junction squares in as many columns as the width allows
    (three in 100 columns), then the ports at their roadsteads. Squares holding ships are
    drawn in the (first) owner's colour, reversed; the square of a move under way underlined."""

    def __init__(self, view: dict[str, Any]) -> None:
        occupied: dict[str, list[int]] = {}
        for s in view["ships"]:
            occupied.setdefault(s["at"], []).append(s["owner"])
        path = set(view.get("path") or [])
        self.lanes = [_lane([D.CODES[i] for i in chain], occupied, path) for chain in D.LANES.values()]
        self.ports = _ports_line(view, occupied)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        cell = max(t.cell_len for t in self.lanes) + 1
        cols = max(1, min(3, (options.max_width + 1) // cell))
        rows = -(-len(self.lanes) // cols)
        grid = Table.grid(padding=(0, 1))
        for _ in range(cols):
            grid.add_column(no_wrap=True, overflow="crop")
        for r in range(rows):
            cells = [
                self.lanes[c * rows + r] if c * rows + r < len(self.lanes) else Text("") for c in range(cols)
            ]
            grid.add_row(*cells)
        head = Text("Map ", style="bold")
        head.append(LEGEND, style="dim")
        yield head
        yield grid
        yield self.ports


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


def _side(g: dict[str, Any]) -> str:
    parts = [f"{g['cash']} ducats"] if g["cash"] else []
    parts += [f"fort {c}" for c in g["fortresses"]] + [f"ship {s}" for s in g["ships"]]
    parts += [f"load {ld}" for ld in g.get("loads", ())]
    return ", ".join(parts) or "nothing"


def offer_text(o: dict[str, Any]) -> str:
    """One offer (or the draft) in a line: who gives what, the truce and its expiry."""
    truce = f"; truce {o['truce_rounds']} rounds" if o["truce_rounds"] else ""
    counter = f" (counter to {o['counter_of']})" if o.get("counter_of") else ""
    return (
        f"seat {o['from']} gives {_side(o['from_gives'])}; seat {o['to']} gives {_side(o['to_gives'])}"
        f"{truce}{counter}"
    )


def render(view: dict[str, Any], seat: int | None) -> RenderableType:
    ships_at: dict[str, list[dict[str, Any]]] = {}
    for s in view["ships"]:
        ships_at.setdefault(s["at"], []).append(s)

    players = Table(box=None, header_style="bold", pad_edge=False, padding=(0, 1))
    for col in ("Seat", "Home", "Cash", "Wealth", "Ships", "Fortresses", "Reefs", "Depots"):
        players.add_column(col)
    for p in view["players"]:
        name = f"{p['seat']} {COLOUR_NAMES[p['seat'] % 4]}" + (" (you)" if p["seat"] == seat else "")
        if p["eliminated"]:
            name += " out"
        if p["seat"] == view["turn"] and view["to_act"] is not None:
            name = "▶ " + name
        depots = " ".join(
            f"{port}:{'+'.join(ld['good'] for ld in loads)}" for port, loads in p.get("depots", {}).items()
        )
        players.add_row(
            Text(name, style=f"bold {_colour(p['seat'])}"),
            p["home"] or "-",
            str(p["cash"]),
            str(p["wealth"]),
            str(p["ships"]),
            " ".join(p["fortresses"]),
            "".join(p["reefs"]),
            depots,
        )

    fleets: list[RenderableType] = []
    for p in view["players"]:
        mine = [s for s in view["ships"] if s["owner"] == p["seat"]]
        if mine:
            line = Text(f"fleet {p['seat']}: ", style=f"bold {_colour(p['seat'])}")
            line.append_text(Text(" ").join(_ship_text(s) for s in mine))
            fleets.append(line)

    markets = Table(box=None, show_header=False, pad_edge=False, padding=(0, 1))
    markets.add_column("Port", style="bold")
    markets.add_column("K = buy here, S = sell here")
    for code in D.PORTS:
        if any(s["owner"] == seat for s in ships_at.get(code, [])):
            entries = " · ".join(f"{g} {p} {'K' * k}{'S' * sl}" for g, (p, k, sl) in D.PRICES[code].items())
            markets.add_row(code, entries)

    status = Text()
    status.append(f"Round {view['round']}/{view['rounds_limit']}  ", style="bold")
    status.append(f"turn: seat {view['turn']}  phase: {view['phase']}  M = {view['M']}")
    if view["moving"]:
        status.append(f"  {view['moving']} under way, {view['mp']} squares left")
    if view["to_act"] is not None:
        status.append(f"  to act: seat {view['to_act']}", style="bold")
        if view["phase"] == "window":
            status.append(" (negotiation window: offer, answer, or pass)")
    if view.get("winners") is not None:
        status.append(f"  GAME OVER, winner: {view['winners']}", style="bold green")

    parts: list[RenderableType] = [status, players, MapPicture(view), *fleets]
    if markets.row_count:
        parts.append(Text("Markets where your ships lie:", style="bold"))
        parts.append(markets)
    ch = view["chance"]
    if ch["round_card"]:
        c = D.CARD_BY_NUM[ch["round_card"]]
        parts.append(Text(f"Card in force: C{c.num:02d} {c.title}: {c.text}", style="magenta"))
    races = [f"C{n:02d} {D.CARD_BY_NUM[n].title}" for n in ch["races"]]
    if races:
        parts.append(Text("Race bonuses waiting: " + "; ".join(races), style="magenta"))
    at = view["attack"]
    if at:
        parts.append(
            Text(
                f"⚔ Seat {view['turn']} attacks seat {at['defender']} at {at['square']}: "
                f"{at['units']} defending unit(s); privateers: {', '.join(at['joined']) or 'none yet'}",
                style="bold red",
            )
        )
    for of in view["offers"]:
        parts.append(Text(f"Offer {of['id']} (open until round {of['expires']}): {offer_text(of)}"))
    if view["draft"]:
        parts.append(Text(f"Draft: {offer_text(view['draft'])}", style="bold cyan"))
    for a, b, r in view["truces"]:
        parts.append(Text(f"Truce: seats {a} and {b} until the end of round {r}", style="green"))
    legend = "ship@square:good price(squares carried)  ☠ privateer  ~ becalmed  ' moved this turn"
    parts.append(Text(legend, style="dim"))
    return Group(*parts)


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


def summarise_events(events: Iterable[dict[str, Any]]) -> list[str]:
    """The events as lines for a person: each ship's run of steps becomes one line with its
    route, its number of squares and what happened on the way; other events keep their text."""
    out: list[str] = []
    run: dict[str, Any] | None = None

    def flush() -> None:
        nonlocal run
        if run is not None:
            n = len(run["squares"])
            notes = "; ".join(run["notes"])
            out.append(
                f"Seat {run['seat']}'s {run['ship']} sails {_route(run['squares'])} "
                f"({n} square{'s' if n != 1 else ''}{'; ' + notes if notes else ''})."
            )
            run = None

    for e in events:
        kind = e.get("kind")
        if kind == "sail" or kind in _STEP_NOTES:
            if run is None or run["ship"] != e.get("ship"):
                flush()
                run = {"ship": e.get("ship"), "seat": e.get("seat"), "squares": [], "notes": []}
            if kind in ("sail", "becalmed"):
                run["squares"].append(e["square"])
            else:
                run["notes"].append(_STEP_NOTES[kind](e))
            continue
        flush()
        if kind == "lost" and e.get("ship"):
            out.append(e.get("text", ""))
        elif e.get("text"):
            out.append(e["text"])
    flush()
    return out
