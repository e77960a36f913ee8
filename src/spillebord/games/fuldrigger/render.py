"""Terminal picture of a Fuldrigger view: the ports by region with fortresses and ships,
ships at sea, every player's purse, ships, cargo and fortresses, and the chance cards."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from . import data as D

COLOURS = ("red", "blue", "green", "yellow")
COLOUR_NAMES = ("rød", "blå", "grøn", "gul")


def _ship_text(s: dict[str, Any]) -> Text:
    colour = COLOURS[s["owner"] % 4]
    t = Text()
    t.append(s["id"], style=f"bold {colour}")
    if s["privateer"]:
        t.append("☠", style=colour)
    if s["cargo"]:
        c = s["cargo"]
        t.append(f"[{c['good']} {c['price']}/{c['odometer']}]", style=colour)
    if s["becalmed"]:
        t.append("~", style="cyan")
    return t


def _offer_text(o: dict[str, Any]) -> str:
    def side(g: dict[str, Any]) -> str:
        parts = [f"{g['cash']} ducats"] if g["cash"] else []
        parts += [f"fort {c}" for c in g["fortresses"]] + [f"ship {s}" for s in g["ships"]]
        return ", ".join(parts) or "nothing"

    truce = f", truce {o['truce_rounds']} rounds" if o["truce_rounds"] else ""
    return (
        f"{o['id']}: seat {o['from']} gives {side(o['from_gives'])}; "
        f"seat {o['to']} gives {side(o['to_gives'])}{truce} (until round {o['expires']})"
    )


def render(view: dict[str, Any], seat: int | None) -> RenderableType:
    ships_at: dict[str, list[dict[str, Any]]] = {}
    for s in view["ships"]:
        ships_at.setdefault(s["at"], []).append(s)
    forts: dict[str, int] = view["fortresses"]

    ports = Table(title="Ports", show_header=True, header_style="bold", expand=False)
    ports.add_column("Region")
    ports.add_column("Port")
    ports.add_column("Fort")
    ports.add_column("Ships")
    race_ports = {c for n in view["chance"]["races"] for c in (D.CARD_BY_NUM[n].cities or ())}
    quiet = []
    for code, port in D.PORTS.items():
        owner = forts.get(code)
        if owner is None and code not in ships_at and code not in race_ports:
            quiet.append(code)
            continue
        fort = Text("■", style=COLOURS[owner % 4]) if owner is not None else Text("")
        line = Text(" ").join(_ship_text(s) for s in ships_at.get(code, []))
        name = f"{port.name} ({code})" + (" $" if code in race_ports else "")
        ports.add_row(port.region, name, fort, line)
    others = Text("Other ports: " + " ".join(quiet), style="dim") if quiet else Text("")
    markets = Table(title="Markets where your ships lie", show_header=False)
    markets.add_column("Port")
    markets.add_column("K = buy here, S = sell here")
    for code in D.PORTS:
        if any(s["owner"] == seat for s in ships_at.get(code, [])):
            entries = " · ".join(f"{g} {p} {'K' * k}{'S' * sl}" for g, (p, k, sl) in D.PRICES[code].items())
            markets.add_row(code, entries)

    sea = Table(title="At sea", show_header=True, header_style="bold")
    sea.add_column("Square")
    sea.add_column("Hazard")
    sea.add_column("Ships")
    for code in sorted(c for c in ships_at if c not in D.PORTS):
        h = D.HAZARD_LIST[D.INDEX[code]]
        hz = D.HAZARD_NAMES_DA[h] if h else ""
        if h == D.REEF:
            hz += " " + D.REEF_LETTER[D.INDEX[code]]
        sea.add_row(code, hz, Text(" ").join(_ship_text(s) for s in ships_at[code]))

    players = Table(title="Companies", show_header=True, header_style="bold")
    for col in ("Seat", "Home", "Cash", "Wealth", "Ships", "Fortresses", "Reefs"):
        players.add_column(col)
    for p in view["players"]:
        colour = COLOURS[p["seat"] % 4]
        name = f"{p['seat']} {COLOUR_NAMES[p['seat'] % 4]}" + (" (you)" if p["seat"] == seat else "")
        if p["eliminated"]:
            name += " out"
        players.add_row(
            Text(name, style=f"bold {colour}"),
            p["home"] or "-",
            str(p["cash"]),
            str(p["wealth"]),
            str(p["ships"]),
            " ".join(p["fortresses"]),
            "".join(p["reefs"]),
        )

    ch = view["chance"]
    cards = []
    if ch["round_card"]:
        c = D.CARD_BY_NUM[ch["round_card"]]
        cards.append(f"C{c.num:02d} {c.title}: {c.text}")
    for n in ch["races"]:
        c = D.CARD_BY_NUM[n]
        cards.append(f"C{c.num:02d} {c.title} (race)")
    status = Text()
    status.append(f"Round {view['round']}/{view['rounds_limit']}  ", style="bold")
    status.append(f"turn: seat {view['turn']}  phase: {view['phase']}  M = {view['M']}")
    if view["moving"]:
        status.append(f"  moving {view['moving']} (MP {view['mp']})")
    if view["to_act"] is not None:
        status.append(f"  to act: seat {view['to_act']}")
    if view.get("winners") is not None:
        status.append(f"  GAME OVER, winner: {view['winners']}", style="bold green")
    parts: list[RenderableType] = [status, players, ports, others, sea]
    if markets.row_count:
        parts.append(markets)
    if cards:
        parts.append(Panel("\n".join(cards), title="Chance cards in force"))
    if view["offers"]:
        parts.append(Panel("\n".join(_offer_text(o) for o in view["offers"]), title="Open offers"))
    legend = Text("ship[good price/odometer]  ☠ privateer  ~ becalmed  ■ fortress  $ race bonus", style="dim")
    parts.append(legend)
    return Group(*parts)
