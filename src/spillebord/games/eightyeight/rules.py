"""88 (Digital Dramatik): the rules engine.

Each player has a display panel (displaypanel) with two seven-segment positions (tens and
units) and a stock of 4 L pieces and 6 straight pieces. A panel is a set of piece placements
(see :mod:`.data`); it must show a valid two-digit number before and after every move.

How a game decomposes into decisions
------------------------------------
* **Setup (Förberedelser, R2).** Each seat in turn (0, 1, …) lays a number: ``lay 47``
  (100 choices), then, where more than one tiling shows it, ``tens <tiling>`` and
  ``units <tiling>`` (e.g. ``tens fg b c``, ``units ab c``). A choice with a single
  possibility is made automatically. With ``secret_setup`` (B14, default) the panels stay
  hidden from the other seats until all are laid, then they are revealed.
* **Target (Måltal, R5).** The Target Setter (Målsättare) has drawn two cards (public);
  they choose the reading: ``target 74`` or ``target 47`` (one action if both digits agree).
* **Moves (R6, R7).** The setter first, then clockwise (seat + 1). Each player declares
  the option *and* the resulting number in one decision: ``stay``, ``rearrange 31``,
  ``remove 17`` or ``add 88`` (at most a few dozen actions: every (option, number) pair
  with at least one legal resulting panel, computed exactly). The option is then fixed; if
  several panels show that number under that option, the player picks the tens tiling and
  then the units tiling (``tens …`` / ``units …``; single choices are automatic). This is
  the spec's atomic ``(option, P')`` move (R7) split into small lists.
* After the last mover the round is scored (pegs, R14–R16, or points, R17–R18), the cards
  are discarded, and the next seat clockwise becomes the setter (R10).

Everything is public except the deck order (and, during a secret setup, others' panels).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from spillebord.core import Action, Game, IllegalAction, ParseError, Rng, State, opt
from spillebord.core.errors import GameOver

from . import data
from .data import (
    OPTIONS,
    PLACEMENT_NAMES,
    STOCK_L,
    STOCK_S,
    Geometry,
    counts,
    distance,
    panel_of,
    panel_text,
    parse_tiling,
    tens_of,
    tiling_text,
    units_of,
)

TITLE = "88"
OPTION_NAMES = {
    "stay": "Stay (Stå kvar)",
    "rearrange": "Rearrange (Arrangera om)",
    "remove": "Take away (Ta bort)",
    "add": "Add (Lägga till)",
}


# ---------------------------------------------------------------------------- options


def _parse_deck(text: str) -> tuple[int, ...]:
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 10:
        raise ValueError("88: deck_composition needs 10 comma-separated counts (digits 0–9)")
    try:
        nums = tuple(int(p) for p in parts)
    except ValueError:
        raise ValueError("88: deck_composition counts must be whole numbers") from None
    if any(n < 0 for n in nums) or sum(nums) < 2:
        raise ValueError("88: deck_composition needs non-negative counts and at least 2 cards")
    return nums


@dataclass(frozen=True, slots=True)
class EightyEightOptions:
    """Rule variants of 88; every field is a decision of the spec (section 12)."""

    scoring: Literal["pegs", "points"] = opt(
        "pegs", "R9/§9: peg track (standard) or points (Alternativ poängräkningsmetod, lowest wins)"
    )
    track_length: int = opt(10, "B1: steps from the start hole to the last (winning) hole", min=1, max=100)
    deck_composition: str = opt(
        "5,5,5,5,5,5,5,5,5,5", "B2: number of cards of each digit 0–9 (default 5 each, 50 cards)"
    )
    reshuffle_every_round: bool = opt(
        False, "B3: draw every target from the full deck (default: discard; reshuffle when < 2 remain)"
    )
    exact_and_round_win_stack: bool = opt(
        False, "B5: exact-hit steps AND the round-win step both apply (default: exact hits first)"
    )
    alone_among_contenders_only: bool = opt(
        False, "B8: 'alone' on target counts only players about to reach the last hole (default: all)"
    )
    alt_glyphs: bool = opt(False, "B11: also accept 6 without a, 9 without d, 7 with f")
    points_rounds: int | None = opt(
        None, "B16/R17: rounds in the points game (default: 3 × number of players)", min=1, max=1000
    )
    points_linear_difference: bool = opt(
        False, "B7: points game uses |x − T| instead of the circular distance via 00"
    )
    max_rounds: int | None = opt(
        None,
        "B18: peg game safeguard: end after this many rounds, most advanced peg wins (default off)",
        min=1,
        max=10000,
    )
    first_setter: int | None = opt(
        None, "B15: seat of the first Target Setter (default: random)", min=0, max=3
    )
    secret_setup: bool = opt(True, "B14: initial numbers are laid in secret and revealed together")

    def __post_init__(self) -> None:
        _parse_deck(self.deck_composition)


Options = EightyEightOptions


# ---------------------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class Lay(Action):
    """Setup (R2): the number a seat lays on its panel."""

    number: int

    def __str__(self) -> str:
        return f"lay {self.number:02d}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "lay", "number": self.number, "text": str(self)}

    def label(self) -> str:
        return f"Lay out {self.number:02d}"


@dataclass(frozen=True, slots=True)
class Target(Action):
    """R5: the Target Setter's reading of the two cards as the target number (Måltal)."""

    number: int

    def __str__(self) -> str:
        return f"target {self.number:02d}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "target", "number": self.number, "text": str(self)}

    def label(self) -> str:
        return f"Target number {self.number:02d}"


@dataclass(frozen=True, slots=True)
class Stay(Action):
    """Option 1, Stay (Stå kvar): touch no piece."""

    def __str__(self) -> str:
        return "stay"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "move", "option": "stay", "text": "stay"}

    def label(self) -> str:
        return OPTION_NAMES["stay"]


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Options 2–4: Rearrange (Arrangera om), Take away (Ta bort), Add (Lägga till),
    declared together with the number the panel will show."""

    option: str
    number: int

    def __str__(self) -> str:
        return f"{self.option} {self.number:02d}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "move", "option": self.option, "number": self.number, "text": str(self)}

    def label(self) -> str:
        return f"{OPTION_NAMES[self.option]} → {self.number:02d}"


@dataclass(frozen=True, slots=True)
class Place(Action):
    """The tiling of one digit position (``tens`` or ``units``) for the chosen number."""

    position: str
    tiling: int

    def __str__(self) -> str:
        return f"{self.position} {tiling_text(self.tiling)}"

    def to_json(self) -> dict[str, Any]:
        pre = "T" if self.position == "tens" else "U"
        return {
            "kind": "place",
            "position": self.position,
            "tiling": tiling_text(self.tiling),
            "placements": [f"{pre}:{n}" for n in data.tiling_items(self.tiling)],
            "text": str(self),
        }

    def label(self) -> str:
        items = data.tiling_items(self.tiling)
        desc = ", ".join(f"L {n}" if len(n) == 2 else f"straight {n}" for n in items)
        return f"{self.position.capitalize()}: {desc}"


EightyEightAction = Lay | Target | Stay | Move | Place

LAY_ACTIONS: tuple[Lay, ...] = tuple(Lay(n) for n in range(100))


_PLACEMENT_IDS: dict[int, tuple[str, ...]] = {}


def placements_json(panel: int) -> list[str]:
    """Placement ids of a panel: ``T:ab``, ``U:c`` (position : covered segments)."""
    got = _PLACEMENT_IDS.get(panel)
    if got is None:
        got = tuple(f"T:{n}" for n in data.tiling_items(tens_of(panel))) + tuple(
            f"U:{n}" for n in data.tiling_items(units_of(panel))
        )
        _PLACEMENT_IDS[panel] = got
    return list(got)


# ---------------------------------------------------------------------------- state


class EightyEightState(State[Any]):
    """A position of 88. ``panels[s]`` is seat s's panel (None until laid in setup)."""

    __slots__ = (
        "cards",
        "deck",
        "discard",
        "game",
        "geo",
        "last_round",
        "opts",
        "order_pos",
        "panels",
        "pegs",
        "pending_number",
        "pending_option",
        "pending_tens",
        "phase",
        "points",
        "rng",
        "round_log",
        "round_no",
        "seats",
        "setter",
        "target",
        "to_act",
        "winner",
    )

    game: EightyEightGame
    opts: EightyEightOptions
    geo: Geometry
    phase: str
    panels: tuple[int | None, ...]
    pegs: tuple[int, ...]
    points: tuple[int, ...]
    setter: int
    round_no: int
    deck: tuple[int, ...]
    discard: tuple[int, ...]
    cards: tuple[int, ...]
    target: int | None
    order_pos: int
    pending_option: str | None
    pending_number: int | None
    pending_tens: int | None
    round_log: tuple[tuple[int, str, int], ...]
    last_round: dict[str, Any] | None
    winner: int | None

    # ------------------------------------------------------------ helpers

    def panel(self, seat: int) -> int:
        p = self.panels[seat]
        assert p is not None
        return p

    def number(self, seat: int) -> int:
        return self.geo.panel_number[self.panel(seat)]

    def rounds_total(self) -> int | None:
        if self.opts.scoring == "points":
            return self.opts.points_rounds or 3 * self.seats
        return self.opts.max_rounds

    def mover_order(self) -> list[int]:
        return [(self.setter + i) % self.seats for i in range(self.seats)]

    def _candidates(self) -> tuple[int, ...]:
        """Panels still possible for the pending choice (setup lay or a declared move)."""
        n = self.pending_number
        assert n is not None
        if self.phase == "setup":
            return self.geo.by_number[n]
        assert self.pending_option is not None and self.to_act is not None
        return self.geo.moves(self.panel(self.to_act))[(self.pending_option, n)]

    def _filtered(self) -> list[int]:
        cands = self._candidates()
        if self.pending_tens is None:
            return list(cands)
        return [p for p in cands if tens_of(p) == self.pending_tens]

    # ------------------------------------------------------------ legal

    def legal(self) -> Sequence[Any]:
        if self.to_act is None:
            return []
        if self.pending_number is not None:
            return _place_actions(self._candidates(), self.pending_tens)
        if self.phase == "setup":
            return LAY_ACTIONS
        if self.phase == "target":
            return [Target(n) for n in self.target_choices()]
        return _move_actions(self.geo, self.panel(self.to_act))

    def target_choices(self) -> list[int]:
        """R5: 10x+y and 10y+x for the drawn cards x, y (one number when x = y)."""
        x, y = self.cards
        return sorted({10 * x + y, 10 * y + x})

    # ------------------------------------------------------------ play

    def play(self, action: Any) -> list[dict[str, Any]]:
        seat = self.to_act
        if seat is None:
            raise GameOver(f"{TITLE}: the game is over")
        if not self._is_legal(action):
            raise IllegalAction(self._why_illegal(action))
        if isinstance(action, Lay):
            return self._after_choice(seat, None, action.number)
        if isinstance(action, Target):
            self.target = action.number
            self.phase = "move"
            self.order_pos = 0
            self.to_act = self.setter
            return [
                {
                    "kind": "target",
                    "seat": seat,
                    "target": action.number,
                    "text": f"Seat {seat} sets the target number {action.number:02d}",
                }
            ]
        if isinstance(action, Stay):
            return self._finish_move(seat, "stay", self.panel(seat))
        if isinstance(action, Move):
            return self._after_choice(seat, action.option, action.number)
        assert isinstance(action, Place)
        if action.position == "tens":
            self.pending_tens = action.tiling
            return self._resolve(seat, [])
        assert self.pending_tens is not None
        return self._complete(seat, panel_of(self.pending_tens, action.tiling), [])

    def _is_legal(self, action: Any) -> bool:
        """``action in self.legal()``, answered without building the list."""
        t = type(action)
        if self.pending_number is not None:
            if t is not Place:
                return False
            want = "tens" if self.pending_tens is None else "units"
            return bool(
                action.position == want
                and action.tiling in _place_tilings(self._candidates(), self.pending_tens)
            )
        if self.phase == "setup":
            return t is Lay and 0 <= action.number <= 99
        if self.phase == "target":
            return t is Target and action.number in self.target_choices()
        if self.phase != "move" or self.to_act is None:
            return False
        if t is Stay:
            return True
        return bool(
            t is Move
            and action.option != "stay"
            and (action.option, action.number) in self.geo.moves(self.panel(self.to_act))
        )

    def _why_illegal(self, action: Any) -> str:
        if self.pending_number is not None:
            what = "laying" if self.phase == "setup" else f"{self.pending_option}"
            need = "tens" if self.pending_tens is None else "units"
            return (
                f"{TITLE}: seat {self.to_act} is placing {self.pending_number:02d} ({what}); "
                f"choose the {need} tiling ({', '.join(str(a) for a in self.legal())}), not {action}"
            )
        if self.phase == "setup":
            return f"{TITLE}: during setup each player lays a number (lay 00–99), not {action}"
        if self.phase == "target":
            return (
                f"{TITLE}: the cards {self.cards[0]} and {self.cards[1]} read only as "
                f"{' or '.join(f'{n:02d}' for n in self.target_choices())}; {action} is not a choice"
            )
        assert self.to_act is not None
        p = self.panel(self.to_act)
        if isinstance(action, Move):
            opts_n = sorted(n for (o, n) in self.geo.moves(p) if o == action.option)
            if not opts_n:
                return f"{TITLE}: {OPTION_NAMES[action.option]} has no legal result from {panel_text(p)}"
            return (
                f"{TITLE}: {OPTION_NAMES[action.option]} from {panel_text(p)} cannot make "
                f"{action.number:02d} (reachable: {' '.join(f'{n:02d}' for n in opts_n)})"
            )
        return f"{TITLE}: {action} is not a legal action now (declare stay, rearrange, remove or add NN)"

    def _after_choice(self, seat: int, option: str | None, number: int) -> list[dict[str, Any]]:
        self.pending_option = option
        self.pending_number = number
        self.pending_tens = None
        events: list[dict[str, Any]] = []
        if option is not None:
            events.append(
                {
                    "kind": "declare",
                    "seat": seat,
                    "option": option,
                    "number": number,
                    "text": f"Seat {seat} declares {OPTION_NAMES[option]} to make {number:02d}",
                }
            )
        return self._resolve(seat, events)

    def _resolve(self, seat: int, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Make forced tiling choices automatically; complete when one panel remains."""
        cands = self._candidates()
        if self.pending_tens is None:
            tens = _place_actions(cands, None)
            if len(tens) > 1:
                return events
            self.pending_tens = tens[0].tiling
        units = _place_actions(cands, self.pending_tens)
        if len(units) > 1:
            return events
        return self._complete(seat, panel_of(self.pending_tens, units[0].tiling), events)

    def _complete(self, seat: int, panel: int, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        option = self.pending_option
        self.pending_option = self.pending_number = self.pending_tens = None
        if self.phase == "setup":
            self.panels = (*self.panels[:seat], panel, *self.panels[seat + 1 :])
            if self.opts.secret_setup:
                events.append({"kind": "lay", "seat": seat, "text": f"Seat {seat} has laid a number"})
            else:
                events.append(
                    {
                        "kind": "lay",
                        "seat": seat,
                        "panel": panel_text(panel),
                        "number": self.geo.panel_number[panel],
                        "text": f"Seat {seat} lays {self.geo.panel_number[panel]:02d}",
                    }
                )
            if seat + 1 < self.seats:
                self.to_act = seat + 1
                return events
            if self.opts.secret_setup:
                events.append(
                    {
                        "kind": "reveal",
                        "seat": None,
                        "panels": [panel_text(self.panel(s)) for s in range(self.seats)],
                        "numbers": [self.number(s) for s in range(self.seats)],
                        "text": "Panels revealed: "
                        + ", ".join(f"seat {s} {self.number(s):02d}" for s in range(self.seats)),
                    }
                )
            events.extend(self._start_round())
            return events
        assert option is not None
        return events + self._finish_move(seat, option, panel)

    def _finish_move(self, seat: int, option: str, panel: int) -> list[dict[str, Any]]:
        self.panels = (*self.panels[:seat], panel, *self.panels[seat + 1 :])
        n = self.geo.panel_number[panel]
        assert self.target is not None
        self.round_log = (*self.round_log, (seat, option, n))
        events: list[dict[str, Any]] = [
            {
                "kind": "move",
                "seat": seat,
                "option": option,
                "panel": panel_text(panel),
                "number": n,
                "distance": distance(n, self.target),
                "text": f"Seat {seat}: {OPTION_NAMES[option]}, shows {n:02d}",
            }
        ]
        self.order_pos += 1
        if self.order_pos < self.seats:
            self.to_act = (self.setter + self.order_pos) % self.seats
            return events
        events.extend(self._score_round())
        return events

    # ------------------------------------------------------------ rounds

    def _start_round(self) -> list[dict[str, Any]]:
        deck, discard = list(self.deck), list(self.discard)
        if self.opts.reshuffle_every_round or len(deck) < 2:
            deck += discard
            discard = []
            self.rng.shuffle(deck)
        self.cards = (deck[0], deck[1])
        self.deck = tuple(deck[2:])
        self.discard = tuple(discard)
        self.phase = "target"
        self.target = None
        self.order_pos = 0
        self.round_log = ()
        self.to_act = self.setter
        return [
            {
                "kind": "draw",
                "seat": self.setter,
                "cards": list(self.cards),
                "text": f"Round {self.round_no + 1}: seat {self.setter} (Target Setter) draws "
                f"{self.cards[0]} and {self.cards[1]}",
            }
        ]

    def _score_round(self) -> list[dict[str, Any]]:
        assert self.target is not None
        t = self.target
        nums = [self.number(s) for s in range(self.seats)]
        d = [distance(x, t) for x in nums]
        events: list[dict[str, Any]] = []
        summary: dict[str, Any] = {
            "round": self.round_no + 1,
            "setter": self.setter,
            "target": t,
            "numbers": nums,
            "distances": d,
        }
        if self.opts.scoring == "pegs":
            awards = peg_awards(d, self.setter, t, self.opts.exact_and_round_win_stack)
            new, winner = apply_pegs(
                self.pegs,
                awards,
                d,
                self.setter,
                self.opts.track_length,
                self.opts.alone_among_contenders_only,
            )
            summary["awards"] = list(awards)
            summary["pegs"] = list(new)
            self.pegs = new
            table = ", ".join(f"seat {s} {nums[s]:02d} (d {d[s]})" for s in range(self.seats))
            if any(awards):
                steps = ", ".join(f"seat {s} +{awards[s]}" for s in range(self.seats) if awards[s])
                text = f"Target {t:02d}: {table}; steps {steps}"
            else:
                text = f"Target {t:02d}: {table}; nobody moves (draw)"
            events.append(
                {"kind": "score", "seat": None, "awards": list(awards), "pegs": list(new), "text": text}
            )
            if winner is not None:
                self.winner = winner
                events.append(
                    {"kind": "win", "seat": winner, "text": f"Seat {winner} reaches the last hole and wins"}
                )
        else:
            dd = [abs(x - t) for x in nums] if self.opts.points_linear_difference else d
            q = penalty_points(dd, self.setter)
            self.points = tuple(p + x for p, x in zip(self.points, q, strict=True))
            summary["penalties"] = list(q)
            summary["points"] = list(self.points)
            events.append(
                {
                    "kind": "score",
                    "seat": None,
                    "penalties": list(q),
                    "points": list(self.points),
                    "text": f"Target {t:02d}: penalties "
                    + ", ".join(f"seat {s} {q[s]}" for s in range(self.seats)),
                }
            )
        self.last_round = summary
        self.discard = (*self.discard, *self.cards)
        self.cards = ()
        self.round_no += 1
        total = self.rounds_total()
        if self.winner is not None or (total is not None and self.round_no >= total):
            self.phase = "over"
            self.to_act = None
            self.target = None
            res = self.result()
            assert res is not None
            events.append({"kind": "end", "seat": None, "result": list(res), "text": "The game is over"})
            return events
        self.setter = (self.setter + 1) % self.seats
        events.extend(self._start_round())
        return events

    # ------------------------------------------------------------ results

    def result(self) -> tuple[float, ...] | None:
        """1.0 for the winner, 0.0 for the others. Pegs: the seat that reached the last hole;
        if ``max_rounds`` ends the game, the most advanced pegs share (1/k each). Points:
        the lowest total wins, tied lowest totals share the win (1/k each)."""
        if self.to_act is not None:
            return None
        if self.winner is not None:
            return tuple(1.0 if s == self.winner else 0.0 for s in range(self.seats))
        if self.opts.scoring == "pegs":
            best = max(self.pegs)
            tops = [s for s in range(self.seats) if self.pegs[s] == best]
        else:
            low = min(self.points)
            tops = [s for s in range(self.seats) if self.points[s] == low]
        return tuple(1.0 / len(tops) if s in tops else 0.0 for s in range(self.seats))

    # ------------------------------------------------------------ view

    def view(self, seat: int | None) -> dict[str, Any]:
        hidden_setup = self.phase == "setup" and self.opts.secret_setup
        players = []
        for s in range(self.seats):
            p = self.panels[s]
            visible = p is not None and (not hidden_setup or s == seat)
            entry: dict[str, Any] = {"seat": s, "laid": p is not None}
            if visible and p is not None:
                n_l, n_s = counts(p)
                n = self.geo.panel_number[p]
                entry.update(
                    panel=panel_text(p),
                    tens=tiling_text(tens_of(p)),
                    units=tiling_text(units_of(p)),
                    placements=placements_json(p),
                    number=n,
                    pieces={"L": n_l, "S": n_s},
                    supply={"L": STOCK_L - n_l, "S": STOCK_S - n_s},
                    distance=distance(n, self.target) if self.target is not None else None,
                    reach={o: list(ns) for o, ns in _reach_by_option(self.geo, p).items()},
                )
            else:
                entry.update(
                    panel=None,
                    tens=None,
                    units=None,
                    placements=None,
                    number=None,
                    pieces=None,
                    supply=None,
                    distance=None,
                    reach=None,
                )
            entry["peg"] = self.pegs[s]
            entry["points"] = self.points[s]
            players.append(entry)
        pending: dict[str, Any] | None = None
        if self.pending_number is not None and (
            self.phase != "setup" or not self.opts.secret_setup or seat == self.to_act
        ):
            pending = {
                "option": self.pending_option,
                "number": self.pending_number,
                "tens": tiling_text(self.pending_tens) if self.pending_tens is not None else None,
            }
        elif self.pending_number is not None:
            pending = {"option": None, "number": None, "tens": None}
        return {
            "game": "88",
            "phase": self.phase,
            "to_act": self.to_act,
            "round": self.round_no + (0 if self.phase in ("setup", "over") else 1),
            "rounds_total": self.rounds_total(),
            "scoring": self.opts.scoring,
            "track_length": self.opts.track_length,
            "setter": self.setter,
            "cards": list(self.cards),
            "target": self.target,
            "target_choices": self.target_choices() if self.phase == "target" else None,
            "deck_size": len(self.deck),
            "discard": sorted(self.discard),
            "players": players,
            "pending": pending,
            "round_moves": [{"seat": s, "option": o, "number": n} for (s, o, n) in self.round_log],
            "last_round": self.last_round,
            "winner": self.winner,
            "result": list(r) if (r := self.result()) is not None else None,
            "stock": {"L": STOCK_L, "S": STOCK_S},
            "alt_glyphs": self.opts.alt_glyphs,
        }

    # ------------------------------------------------------------ copies

    def copy(self) -> EightyEightState:
        s = EightyEightState.__new__(EightyEightState)
        for name in EightyEightState.__slots__:
            setattr(s, name, getattr(self, name))
        s.rng = self.rng.copy()
        return s

    def determinize(self, seat: int, rng: Rng) -> EightyEightState:
        s = self.copy()
        deck = list(self.deck)
        rng.shuffle(deck)
        s.deck = tuple(deck)
        if self.phase == "setup" and self.opts.secret_setup:
            all_panels = self.geo.panel_list
            panels = list(self.panels)
            for o in range(self.seats):
                if o != seat and panels[o] is not None:
                    panels[o] = rng.choice(all_panels)
            s.panels = tuple(panels)
            if self.pending_number is not None and self.to_act != seat:
                q = rng.choice(all_panels)
                s.pending_number = self.geo.panel_number[q]
                s.pending_tens = None
                cands = s._filtered()
                if len({tens_of(p) for p in cands}) == 1 or self.pending_tens is not None:
                    s.pending_tens = tens_of(q)
        s.rng = rng.spawn()
        return s

    # ------------------------------------------------------------ invariants

    def check(self) -> None:
        geo = self.geo
        for s, p in enumerate(self.panels):
            if p is None:
                assert self.phase == "setup", f"seat {s} has no panel after setup"
                continue
            assert geo.is_valid(p), f"seat {s}'s panel {panel_text(p)} is invalid"
            n_l, n_s = counts(p)
            assert 0 <= n_l <= STOCK_L and 0 <= n_s <= STOCK_S, "piece conservation broken"
            segs_on = (
                data.tiling_segments(tens_of(p)).bit_count() + data.tiling_segments(units_of(p)).bit_count()
            )
            assert segs_on == 2 * n_l + n_s, "segment count differs from pieces"
        comp = _parse_deck(self.opts.deck_composition)
        have = [0] * 10
        for c in (*self.deck, *self.discard, *self.cards):
            have[c] += 1
        assert tuple(have) == comp, "cards are not conserved"
        w = self.opts.track_length
        assert all(0 <= x <= w for x in self.pegs), "peg off the track"
        assert sum(x == w for x in self.pegs) <= 1, "two pegs in the last hole"
        assert all(x >= 0 for x in self.points)
        if self.phase == "target":
            assert len(self.cards) == 2 and self.to_act == self.setter
        if self.phase == "move":
            assert self.target is not None and self.target in self.target_choices()
            assert self.to_act == (self.setter + self.order_pos) % self.seats
        if self.phase == "over":
            assert self.to_act is None


def _tkey(mask: int) -> tuple[tuple[int, int], str]:
    return counts(mask), tiling_text(mask)


_PLACE_TILINGS: dict[tuple[int, int | None], frozenset[int]] = {}


def _place_tilings(cands: tuple[int, ...], tens: int | None) -> frozenset[int]:
    key = (id(cands), tens)
    got = _PLACE_TILINGS.get(key)
    if got is None:
        got = _PLACE_TILINGS[key] = frozenset(a.tiling for a in _place_actions(cands, tens))
    return got


_PLACE_ACTIONS: dict[tuple[int, int | None], tuple[Place, ...]] = {}
_PLACE_KEEP: list[tuple[int, ...]] = []


def _place_actions(cands: tuple[int, ...], tens: int | None) -> tuple[Place, ...]:
    """The tens tilings among ``cands`` (``tens`` None), or the units tilings that go with
    ``tens``. ``cands`` are the long-lived tuples of a Geometry, so they are cached by id."""
    key = (id(cands), tens)
    got = _PLACE_ACTIONS.get(key)
    if got is None:
        if tens is None:
            got = tuple(Place("tens", t) for t in sorted({tens_of(p) for p in cands}, key=_tkey))
        else:
            units = {units_of(p) for p in cands if tens_of(p) == tens}
            got = tuple(Place("units", u) for u in sorted(units, key=_tkey))
        _PLACE_KEEP.append(cands)  # keep ids valid
        _PLACE_ACTIONS[key] = got
    return got


_REACH_BY_OPTION: dict[tuple[int, int], dict[str, tuple[int, ...]]] = {}


def _reach_by_option(geo: Geometry, panel: int) -> dict[str, tuple[int, ...]]:
    """Option → the numbers it can make from ``panel`` (for views: clients and bots)."""
    key = (id(geo), panel)
    got = _REACH_BY_OPTION.get(key)
    if got is None:
        out: dict[str, list[int]] = {o: [] for o in OPTIONS}
        for o, n in geo.moves(panel):
            out[o].append(n)
        got = {o: tuple(v) for o, v in out.items()}
        _REACH_BY_OPTION[key] = got
    return got


_MOVE_ACTIONS: dict[tuple[int, int], tuple[Any, ...]] = {}


def _move_actions(geo: Geometry, panel: int) -> tuple[Any, ...]:
    key = (id(geo), panel)
    got = _MOVE_ACTIONS.get(key)
    if got is None:
        got = tuple(Stay() if o == "stay" else Move(o, n) for (o, n) in geo.moves(panel))
        _MOVE_ACTIONS[key] = got
    return got


# ---------------------------------------------------------------------------- scoring


def peg_awards(d: Sequence[int], setter: int, target: int, stack: bool = False) -> tuple[int, ...]:
    """R14: steps awarded per seat from the final distances ``d`` (before the R15 cap).

    Exact hitters get 1 (2 when the target is 88); by default (B5 "exact-first") nothing
    else is awarded in such a round. Otherwise the setter wins unless a non-setter is
    strictly closer; a unique closest non-setter wins; two or more tied closest non-setters
    make a draw. With ``stack`` the round-win step is added in every round.
    """
    n = len(d)
    awards = [0] * n
    exact = [s for s in range(n) if d[s] == 0]
    for s in exact:
        awards[s] = 2 if target == 88 else 1
    if exact and not stack:
        return tuple(awards)
    others = [s for s in range(n) if s != setter]
    m = min(d[o] for o in others)
    if d[setter] <= m:
        awards[setter] += 1
    else:
        best = [o for o in others if d[o] == m]
        if len(best) == 1:
            awards[best[0]] += 1
    return tuple(awards)


def apply_pegs(
    pegs: Sequence[int],
    awards: Sequence[int],
    d: Sequence[int],
    setter: int,
    track: int,
    contenders_only: bool = False,
) -> tuple[tuple[int, ...], int | None]:
    """R15: move the pegs; the last hole only by an exact hit, alone on target or as setter.

    Returns the new pegs and the winner (or None). A player who may not take the last hole
    stops at the second-to-last one.
    """
    n = len(pegs)
    exact = [s for s in range(n) if d[s] == 0]
    if contenders_only:
        exact = [s for s in exact if pegs[s] + awards[s] >= track]
    new = list(pegs)
    winner = None
    for s in range(n):
        a = awards[s]
        if not a:
            continue
        if pegs[s] + a < track:
            new[s] = pegs[s] + a
        elif d[s] == 0 and (exact == [s] or s == setter) and winner is None:
            new[s] = track
            winner = s
        else:
            new[s] = max(pegs[s], track - 1)
    return tuple(new), winner


def penalty_points(d: Sequence[int], setter: int) -> tuple[int, ...]:
    """R17: penalty points per seat from the differences ``d`` (lowest total wins)."""
    n = len(d)
    others = [s for s in range(n) if s != setter]
    m = min(d[o] for o in others)
    q = list(d)
    if d[setter] <= m:
        q[setter] = 0
    if d[setter] == 0:
        for o in others:
            q[o] = 2 * d[o]
    return tuple(q)


# ---------------------------------------------------------------------------- game


def _heuristic_agent(game: Game[Any]) -> Any:
    from .heuristics import HeuristicAgent

    return HeuristicAgent(game)


class EightyEightGame(Game[EightyEightOptions]):
    """88 — Digital Dramatik (Jeremy Shaw, 1987): build the number closest to the target."""

    id = "88"
    title = "88 — Digital Dramatik"
    seats = range(2, 5)
    Options = EightyEightOptions
    summary = (
        "Seven-segment number building: rearrange, remove or add L and straight pieces to hit the target"
    )
    languages = ("en", "sv")
    best_bot = "heuristic"
    quick_options: ClassVar[dict[str, Any]] = {"track_length": 3, "max_rounds": 6}
    max_decisions = 20_000
    agents: ClassVar[dict[str, Callable[[Game[Any]], Any]]] = {"heuristic": _heuristic_agent}

    def new(self, seats: int, seed: int, options: EightyEightOptions | None = None) -> EightyEightState:
        self.check_seats(seats)
        o = options if options is not None else EightyEightOptions()
        if o.first_setter is not None and o.first_setter >= seats:
            from spillebord.core import OptionError

            raise OptionError(f"{TITLE}: first_setter {o.first_setter} is not a seat of {seats}")
        s = EightyEightState.__new__(EightyEightState)
        s.game, s.opts, s.geo, s.seats = self, o, data.geometry(o.alt_glyphs), seats
        s.rng = Rng(seed)
        s.setter = o.first_setter if o.first_setter is not None else s.rng.randrange(seats)
        comp = _parse_deck(o.deck_composition)
        deck = [dgt for dgt in range(10) for _ in range(comp[dgt])]
        s.rng.shuffle(deck)
        s.deck, s.discard, s.cards = tuple(deck), (), ()
        s.panels = (None,) * seats
        s.pegs = (0,) * seats
        s.points = (0,) * seats
        s.phase = "setup"
        s.round_no = 0
        s.target = None
        s.order_pos = 0
        s.pending_option = s.pending_number = s.pending_tens = None
        s.round_log = ()
        s.last_round = None
        s.winner = None
        s.to_act = 0
        return s

    def position(
        self,
        panels: Sequence[str | int],
        *,
        setter: int = 0,
        cards: tuple[int, int] | None = None,
        target: int | None = None,
        pegs: Sequence[int] | None = None,
        points: Sequence[int] | None = None,
        round_no: int = 0,
        options: EightyEightOptions | None = None,
        seed: int = 0,
    ) -> EightyEightState:
        """A state from a compact description (tests, puzzles, the web client's demos).

        ``panels`` in the ``"fg b c|ab c"`` notation (or panel ints). With ``target`` the
        round is in its move phase with the setter to move (the cards default to the
        target's digits); with only ``cards`` the setter is to choose the target.
        """
        s = self.new(len(panels), seed, options)
        geo = s.geo
        ps = tuple(data.parse_panel(p) if isinstance(p, str) else p for p in panels)
        for p in ps:
            if not geo.is_valid(p):
                raise ValueError(f"{TITLE}: invalid panel {panel_text(p)}")
        s.panels = ps
        s.setter = setter
        s.round_no = round_no
        if pegs is not None:
            s.pegs = tuple(pegs)
        if points is not None:
            s.points = tuple(points)
        if cards is None and target is not None:
            cards = (target // 10, target % 10)
        if cards is None:
            cards = (s.deck[0], s.deck[1])
        deck = list(s.deck)
        for c in cards:
            deck.remove(c)
        s.deck, s.cards = tuple(deck), tuple(cards)
        s.to_act = setter
        s.phase = "target"
        if target is not None:
            if target not in s.target_choices():
                raise ValueError(f"{TITLE}: cards {cards} cannot read as {target:02d}")
            s.phase, s.target = "move", target
        return s

    def parse(self, state: State[Any], text: str) -> Action:
        t = " ".join(text.strip().lower().split())
        if state.to_act is None:
            raise GameOver(f"{TITLE}: the game is over")
        if t == "stay":
            return Stay()
        head, _, rest = t.partition(" ")
        if head in ("tens", "units") and rest:
            try:
                return Place(head, parse_tiling(rest))
            except ValueError as e:
                raise ParseError(f"{TITLE}: {e}") from None
        if head == "take" and rest.startswith("away "):
            head, rest = "remove", rest[5:]
        if head in ("lay", "target", "rearrange", "remove", "add") and rest.isdigit() and len(rest) <= 2:
            n = int(rest)
            if head == "lay":
                return Lay(n)
            if head == "target":
                return Target(n)
            return Move(head, n)
        raise ParseError(
            f"{TITLE}: {text!r} is not an action (stay, rearrange NN, remove NN, add NN, "
            "target NN, lay NN, tens …, units …)"
        )

    def evaluate(self, state: State[Any], seat: int) -> float:
        from .heuristics import evaluate

        assert isinstance(state, EightyEightState)
        return evaluate(state, seat)


__all__ = [
    "OPTIONS",
    "PLACEMENT_NAMES",
    "EightyEightGame",
    "EightyEightOptions",
    "EightyEightState",
    "Lay",
    "Move",
    "Options",
    "Place",
    "Stay",
    "Target",
    "apply_pegs",
    "peg_awards",
    "penalty_points",
]
