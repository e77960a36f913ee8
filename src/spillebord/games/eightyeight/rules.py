"""88 (Digital Dramatik): the rules engine (docs/rules/88.md).

Each player has a display panel (displaypanel) with two seven-segment positions (tens and
units) and a stock of 4 L pieces and 6 straight pieces. A panel is a set of piece placements
(see :mod:`.data`); it must show a valid two-digit number before and after every move.

How a game decomposes into decisions
------------------------------------
* **Setup (Förberedelser, R2).** Each seat in turn (0, 1, …) lays a number: ``lay 47``
  (100 choices), then, where more than one tiling shows it, ``tens <tiling>`` and
  ``units <tiling>`` (e.g. ``tens fg b c``, ``units ab c``). A choice with a single
  possibility is made automatically. With ``secret_setup`` (B14, default) the panels stay
  hidden from the other seats until all are laid, then they are revealed; and every seat then
  takes exactly three decisions (lay, tens, units: a forced tiling is confirmed, not skipped),
  so that the number of decisions gives nothing away.
* **Target (Måltal, R5).** The Target Setter (Målsättare) has drawn two cards (public);
  they choose the reading: ``target 74`` or ``target 47`` (one action if both digits agree).
* **Moves (R6, R7).** The setter first, then clockwise (seat + 1). Each player declares
  the option *and* the resulting number in one decision: ``stay``, ``rearrange 31``,
  ``remove 17`` or ``add 88`` (at most a few dozen actions: every (option, number) pair
  with at least one legal resulting panel, computed exactly). The option is then fixed; if
  several panels show that number under that option, the player picks the tens tiling and
  then the units tiling (``tens …`` / ``units …``; single choices are automatic). This is
  the atomic ``(option, P')`` move of R7 split into small lists.
* After the last mover the round is scored (pegs, R14–R16, or points, R17–R18), the cards
  are discarded, and the next seat clockwise becomes the setter (R10).

Everything is public except the deck order (and, during a secret setup, others' panels).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from spillebord.core import (
    Action,
    Event,
    GameKind,
    GameOver,
    IllegalAction,
    OptionError,
    Rng,
    state,
    win_outcome,
)
from spillebord.core.game import Game, State  # the defining module: mypyc needs it for bases
from spillebord.core.mypyc import mypyc_attr

from .actions import (
    LAY_ACTIONS,
    OPTION_NAMES,
    TARGET_ACTIONS,
    EightyEightAction,
    Lay,
    Move,
    Place,
    Stay,
    Target,
    move_actions,
    place_actions,
    place_tilings,
)
from .data import (
    DIST,
    STOCK_L,
    STOCK_S,
    Geometry,
    counts,
    geometry,
    panel_of,
    panel_text,
    tens_of,
    tiling_segments,
    units_of,
)
from .notation import parse_action
from .options import EightyEightOptions, deck_counts
from .position import position
from .scoring import apply_pegs, peg_awards, penalty_points
from .view import view

TITLE = "88"


@state
class EightyEightState(State[EightyEightAction]):
    """A position of 88. ``panels[s]`` is seat s's panel (None until laid in setup).

    Every field is immutable (ints, tuples, the shared geometry and options) except
    ``last_round``, a dict that is replaced each round and never changed in place, so a
    copy shares them all.
    """

    opts: EightyEightOptions
    geo: Geometry
    phase: str
    """``setup``, ``target``, ``move`` or ``over``."""
    panels: tuple[int | None, ...]
    pegs: tuple[int, ...]
    points: tuple[int, ...]
    """Penalty points (the points game, R17); lowest total wins."""
    setter: int
    round_no: int
    """Rounds completed."""
    deck: tuple[int, ...]
    deck_unordered: bool
    """Only in a determinized state: the deck's order was not dealt (it is kept sorted); the
    next draw takes its cards at random, the same law as a shuffled deck (no shuffle of cards
    that may never be drawn)."""
    discard: tuple[int, ...]
    cards: tuple[int, ...]
    """The two target cards of the current round (empty between rounds)."""
    target: int | None
    order_pos: int
    """Index of the mover in the round's order (the setter is 0)."""
    pending_option: str | None
    pending_number: int | None
    pending_tens: int | None
    """A declared move (or a setup lay) whose tilings are still being chosen."""
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

    def target_choices(self) -> list[int]:
        """R5: 10x+y and 10y+x for the drawn cards x, y (one number when x = y)."""
        x, y = self.cards
        return sorted({10 * x + y, 10 * y + x})

    def _candidates(self) -> tuple[int, ...]:
        """Panels still possible for the pending choice (setup lay or a declared move)."""
        n = self.pending_number
        assert n is not None
        if self.phase == "setup":
            return self.geo.by_number[n]
        assert self.pending_option is not None and self.to_act is not None
        return self.geo.moves(self.panel(self.to_act))[(self.pending_option, n)]

    def pending_panels(self) -> list[int]:
        """The panels the pending choice can still end with (given the chosen tens tiling)."""
        cands = self._candidates()
        if self.pending_tens is None:
            return list(cands)
        return [p for p in cands if tens_of(p) == self.pending_tens]

    # ------------------------------------------------------------ legal

    def legal(self) -> Sequence[EightyEightAction]:
        if self.to_act is None:
            return []
        if self.pending_number is not None:
            return place_actions(self._candidates(), self.pending_tens)
        phase = self.phase
        if phase == "setup":
            return LAY_ACTIONS
        if phase == "target":
            return [TARGET_ACTIONS[n] for n in self.target_choices()]
        return move_actions(self.geo, self.panel(self.to_act))

    # ------------------------------------------------------------ apply

    def apply(self, action: EightyEightAction) -> list[Event]:
        seat = self.to_act
        if seat is None:
            raise GameOver(f"{TITLE}: the game is over")
        # A placement and a declared move are checked here with the candidate panels the
        # resolution then uses (the same test as _is_legal, looked up once).
        if isinstance(action, Place) and self.pending_number is not None:
            cands = self._candidates()
            tens = self.pending_tens
            if action.position != ("tens" if tens is None else "units") or action.tiling not in place_tilings(
                cands, tens
            ):
                raise IllegalAction(self._why_illegal(action))
            if tens is None:
                self.pending_tens = action.tiling
                return self._resolve(seat, [], cands)
            return self._complete(seat, panel_of(tens, action.tiling), [])
        if isinstance(action, Move) and self.pending_number is None and self.phase == "move":
            option = action.option
            found = (
                self.geo.moves(self.panel(seat)).get((option, action.number)) if option != "stay" else None
            )
            if found is None:
                raise IllegalAction(self._why_illegal(action))
            return self._after_choice(seat, option, action.number, found)
        if not self._is_legal(action):
            raise IllegalAction(self._why_illegal(action))
        assert not isinstance(action, (Move, Place))  # a legal one was played above
        if isinstance(action, Stay):
            return self._finish_move(seat, "stay", self.panel(seat))
        if isinstance(action, Lay):
            return self._after_choice(seat, None, action.number)
        number = action.number  # a Target
        self.target = number
        self.phase = "move"
        self.order_pos = 0
        self.to_act = self.setter
        return [
            {
                "kind": "target",
                "seat": seat,
                "target": number,
                "text": f"Seat {seat} sets the target number {number:02d}",
            }
        ]

    def _is_legal(self, action: Action) -> bool:
        """``action in self.legal()``, answered without building the list."""
        if self.pending_number is not None:
            if not isinstance(action, Place):
                return False
            want = "tens" if self.pending_tens is None else "units"
            return action.position == want and action.tiling in place_tilings(
                self._candidates(), self.pending_tens
            )
        if self.phase == "setup":
            return isinstance(action, Lay) and 0 <= action.number <= 99
        if self.phase == "target":
            return isinstance(action, Target) and action.number in self.target_choices()
        if self.phase != "move" or self.to_act is None:
            return False
        if isinstance(action, Stay):
            return True
        if not isinstance(action, Move):
            return False
        return action.option != "stay" and (action.option, action.number) in self.geo.moves(
            self.panel(self.to_act)
        )

    def _why_illegal(self, action: Action) -> str:
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
        if isinstance(action, Move) and action.option in OPTION_NAMES:
            name = OPTION_NAMES[action.option]
            opts_n = sorted(n for (o, n) in self.geo.moves(p) if o == action.option)
            if not opts_n:
                return f"{TITLE}: {name} has no legal result from {panel_text(p)}"
            return (
                f"{TITLE}: {name} from {panel_text(p)} cannot make "
                f"{action.number:02d} (reachable: {' '.join(f'{n:02d}' for n in opts_n)})"
            )
        return f"{TITLE}: {action} is not a legal action now (declare stay, rearrange, remove or add NN)"

    def _after_choice(
        self, seat: int, option: str | None, number: int, cands: tuple[int, ...] | None = None
    ) -> list[Event]:
        self.pending_option = option
        self.pending_number = number
        self.pending_tens = None
        events: list[Event] = []
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
        return self._resolve(seat, events, cands)

    def _resolve(self, seat: int, events: list[Event], cands: tuple[int, ...] | None = None) -> list[Event]:
        """Make forced tiling choices automatically; complete when one panel remains.

        Not in a secret setup (B14): there every seat takes the same decisions (lay, tens,
        units), a forced one included, or how many it took would tell the others which
        numbers it could have laid."""
        if self.phase == "setup" and self.opts.secret_setup:
            return events
        if cands is None:
            cands = self._candidates()
        if self.pending_tens is None:
            tens = place_actions(cands, None)
            if len(tens) > 1:
                return events
            self.pending_tens = tens[0].tiling
        units = place_actions(cands, self.pending_tens)
        if len(units) > 1:
            return events
        return self._complete(seat, panel_of(self.pending_tens, units[0].tiling), events)

    def _complete(self, seat: int, panel: int, events: list[Event]) -> list[Event]:
        option = self.pending_option
        self.pending_option = self.pending_number = self.pending_tens = None
        if self.phase != "setup":
            assert option is not None
            return events + self._finish_move(seat, option, panel)
        self.panels = (*self.panels[:seat], panel, *self.panels[seat + 1 :])
        number = self.geo.panel_number[panel]
        if self.opts.secret_setup:
            events.append({"kind": "lay", "seat": seat, "text": f"Seat {seat} has laid a number"})
        else:
            events.append(
                {
                    "kind": "lay",
                    "seat": seat,
                    "panel": panel_text(panel),
                    "number": number,
                    "text": f"Seat {seat} lays {number:02d}",
                }
            )
        if seat + 1 < self.seats:
            self.to_act = seat + 1
            return events
        if self.opts.secret_setup:
            numbers = [self.number(s) for s in range(self.seats)]
            events.append(
                {
                    "kind": "reveal",
                    "seat": None,
                    "panels": [panel_text(self.panel(s)) for s in range(self.seats)],
                    "numbers": numbers,
                    "text": "Panels revealed: "
                    + ", ".join(f"seat {s} {numbers[s]:02d}" for s in range(self.seats)),
                }
            )
        events.extend(self._start_round())
        return events

    def _finish_move(self, seat: int, option: str, panel: int) -> list[Event]:
        self.panels = (*self.panels[:seat], panel, *self.panels[seat + 1 :])
        n = self.geo.panel_number[panel]
        assert self.target is not None
        self.round_log = (*self.round_log, (seat, option, n))
        events: list[Event] = [
            {
                "kind": "move",
                "seat": seat,
                "option": option,
                "panel": panel_text(panel),
                "number": n,
                "distance": DIST[n][self.target],
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

    def _start_round(self) -> list[Event]:
        deck, discard = list(self.deck), list(self.discard)
        if self.opts.reshuffle_every_round or len(deck) < 2:
            deck += discard
            discard = []
            self.rng.shuffle(deck)
            self.deck_unordered = False
        if self.deck_unordered:  # two cards at random, one after the other (see determinize)
            first = deck.pop(self.rng.randrange(len(deck)))
            second = deck.pop(self.rng.randrange(len(deck)))
            self.cards = (first, second)
            self.deck = tuple(deck)
        else:
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

    def _score_round(self) -> list[Event]:
        assert self.target is not None
        t = self.target
        o = self.opts
        number = self.geo.panel_number
        nums = [number[p] for p in self.panels if p is not None]  # every seat has laid
        d = [DIST[x][t] for x in nums]
        events: list[Event] = []
        summary: dict[str, Any] = {
            "round": self.round_no + 1,
            "setter": self.setter,
            "target": t,
            "numbers": nums,
            "distances": d,
        }
        if o.scoring == "pegs":
            awards = peg_awards(d, self.setter, t, o.exact_and_round_win_stack)
            new, winner = apply_pegs(
                self.pegs, awards, d, self.setter, o.track_length, o.alone_among_contenders_only
            )
            summary["awards"] = list(awards)
            summary["pegs"] = list(new)
            self.pegs = new
            table = ", ".join([f"seat {s} {nums[s]:02d} (d {d[s]})" for s in range(self.seats)])
            if any(awards):
                steps = ", ".join([f"seat {s} +{a}" for s, a in enumerate(awards) if a])
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
            dd = [abs(x - t) for x in nums] if o.points_linear_difference else d
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
            outcome = self.outcome()
            assert outcome is not None
            events.append({"kind": "end", "seat": None, "result": list(outcome), "text": "The game is over"})
            return events
        self.setter = (self.setter + 1) % self.seats
        events.extend(self._start_round())
        return events

    # ------------------------------------------------------------ outcome

    def scores(self) -> tuple[float, ...]:
        """Per seat, by the scoring system: the peg game (R14–R16), the peg's hole on the
        track (0 … ``track_length``); the points game (R17–R18), minus the penalty points
        (lowest total wins, so higher is better here too)."""
        if self.opts.scoring == "pegs":
            return tuple(float(x) for x in self.pegs)
        return tuple(-float(x) for x in self.points)

    def final_outcome(self) -> tuple[float, ...]:
        """R16: the seat whose peg reached the last hole wins. Otherwise (the ``max_rounds``
        safeguard, or the points game's last round) the best scores win, ties share (B18,
        B16)."""
        if self.winner is not None:
            return win_outcome([self.winner], self.teams(), self.seats)
        return State.final_outcome(self)

    # ------------------------------------------------------------ view, determinize

    def view(self, seat: int | None) -> dict[str, Any]:
        return view(self, seat)

    def determinize(self, seat: int, rng: Rng) -> EightyEightState:
        """The deck's order is hidden: the copy keeps the deck's cards, sorted, and draws them
        at random (``deck_unordered``), which is the law of a uniformly shuffled deck without
        shuffling it. During a secret setup the others' panels are re-drawn too."""
        s = self.copy()
        s.deck = tuple(sorted(self.deck))
        s.deck_unordered = True
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
                # Whether the tens are chosen is public (in a secret setup every seat takes
                # each step as a decision, a forced one too, B14); which tens is not.
                s.pending_tens = tens_of(q) if self.pending_tens is not None else None
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
            segs_on = tiling_segments(tens_of(p)).bit_count() + tiling_segments(units_of(p)).bit_count()
            assert segs_on == 2 * n_l + n_s, "segment count differs from pieces"
        have = [0] * 10
        for c in (*self.deck, *self.discard, *self.cards):
            have[c] += 1
        assert tuple(have) == deck_counts(self.opts.deck_composition), "cards are not conserved"
        w = self.opts.track_length
        assert all(0 <= x <= w for x in self.pegs), "peg off the track"
        assert sum(x == w for x in self.pegs) <= 1, "two pegs in the last hole"
        assert all(x >= 0 for x in self.points)
        assert self.decisions <= self.game.kind.max_decisions
        if self.truncated:
            assert self.to_act is None and self.winner is None
            return
        if self.phase == "target":
            assert len(self.cards) == 2 and self.to_act == self.setter
        if self.phase == "move":
            assert self.target is not None and self.target in self.target_choices()
            assert self.to_act == (self.setter + self.order_pos) % self.seats
        if self.phase == "over":
            assert self.to_act is None


@mypyc_attr(allow_interpreted_subclasses=True)
class EightyEightGame(Game[EightyEightOptions, EightyEightState]):
    """88 — Digital Dramatik (Jeremy Shaw, 1987): build the number closest to the target."""

    id = "88"
    title = "88 — Digital Dramatik"
    seats = range(2, 5)
    kind = GameKind(
        hidden_information=True,  # the deck order; during a secret setup, the others' panels
        chance=True,  # the deck is shuffled (again when it runs out)
        public_actions=False,  # "lay 47" during a secret setup is a secret
        max_decisions=20_000,
        secret_choices=True,  # the secret setup (B14): everyone lays without seeing the others
    )
    Options = EightyEightOptions
    summary = (
        "Seven-segment number building: rearrange, remove or add L and straight pieces to hit the target"
    )
    languages = ("en", "sv")
    quick_options: ClassVar[dict[str, Any]] = {"track_length": 3, "max_rounds": 6}
    version = 2
    """2: a secret setup (B14) takes the same three decisions whatever is laid (lay, tens,
    units; a forced tiling is confirmed rather than made automatically), so the number of
    decisions no longer tells the other seats anything about the number."""

    def new(self, seats: int, seed: int, options: EightyEightOptions | None = None) -> EightyEightState:
        self.check_seats(seats)
        o = options if options is not None else EightyEightOptions()
        if o.first_setter is not None and o.first_setter >= seats:
            raise OptionError(f"{TITLE}: first_setter {o.first_setter} is not a seat of {seats}")
        s: EightyEightState = EightyEightState.__new__(EightyEightState)
        s.start(self, seats, Rng(seed))
        s.opts, s.geo = o, geometry(o.alt_glyphs)
        s.setter = o.first_setter if o.first_setter is not None else s.rng.randrange(seats)
        comp = deck_counts(o.deck_composition)
        deck = [dgt for dgt in range(10) for _ in range(comp[dgt])]
        s.rng.shuffle(deck)
        s.deck, s.discard, s.cards = tuple(deck), (), ()
        s.deck_unordered = False
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
        """A state from a compact description: see :func:`.position.position`."""
        return position(
            self,
            panels,
            setter=setter,
            cards=cards,
            target=target,
            pegs=pegs,
            points=points,
            round_no=round_no,
            options=options,
            seed=seed,
        )

    def parse(self, state: EightyEightState, text: str) -> Action:
        if state.to_act is None:
            raise GameOver(f"{TITLE}: the game is over")
        return parse_action(text)


__all__ = ["EightyEightGame", "EightyEightState"]
