"""Revir: cats fighting over territories (revir) on the farm Tviksta Gård.

The rules are docs/rules/revir.md (rule numbers R#, sections and decisions D# below refer to
it); the board and cards come from :mod:`.data` so another edition can replace them.

How a turn (drag) decomposes into decisions
-------------------------------------------
1. **Reveal** (vända upp ett händelsekort) is mandatory and has no choice, so the engine does it
   by itself when the turn starts: the card clock (kortklockan) advances (rule 4.1) and a
   revealed "only this move" card (gäller endast detta drag, ONCE) resolves at once (rule 5.4).
2. **Move** (förflytta sig): one decision, ``stay`` or ``move XX`` (a destination square). A
   walk's cost depends only on its length, so the engine walks the shortest open path and
   charges ``max(0, steps-1)`` stones (0 under Pigg katt). The happenings (HAPPEN cards:
   food and petting) then pay the active player (rule 5.3) without a decision.
3. **Fight or hunt** (slåss om revir *eller* jaga råttor): one decision, ``fight XX`` (XX is the
   contested territory; its owner is the defender), ``hunt XX`` (the square the cat stands on)
   or ``pass``. When neither a fight nor a hunt is possible the engine skips this decision.
4. **A fight** is a sequence of rounds; each round is two decisions: the attacker submits
   ``bid N`` or ``surrender``, then the defender does. The attacker's submission is hidden
   (not in any other seat's view, not in any event, re-sampled by ``determinize`` for the
   other seats) until the defender's is in; then both are revealed together (rule 7.2).
   **Surrender (ge upp) "at any time"** is modelled as the ``surrender`` action, offered to both
   sides at every one of their bidding decisions, including before the first bid (D13). During
   a fight the defender is ``to_act`` for their half of each round.

Every game ends: each turn advances the turn counter ``t``, the turn cap (``max_turns``, rule
9.3) ends the game by ranking, and a fight lasts at most ``stones(A) + stones(D) + 1`` rounds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from spillebord.core import Event, GameKind, IllegalAction, Rng, state, win_outcome
from spillebord.core.errors import GameOver, OptionError
from spillebord.core.game import Game, State  # the defining module: mypyc needs it for bases
from spillebord.core.mypyc import mypyc_attr

from .actions import PASS, STAY, SURRENDER, Bid, Fight, Hunt, Move, Pass, RevirAction, Stay, Surrender, bids
from .data import EMPTY, GEOMETRY, Geometry
from .notation import TITLE, parse_action
from .options import RevirOptions
from .view import build_view

_EFFECTS: dict[tuple[int, tuple[int, ...], int, int], Effects] = {}
"""Memo: the effects of a clock (by geometry, circle, pile position and new card)."""
_MOVES: dict[tuple[int, int, int, int], tuple[RevirAction, ...]] = {}
"""Memo: the movement decisions from a square (by geometry, open doors, square, reach)."""

# --------------------------------------------------------------------------- state parts


class Effects(NamedTuple):
    """What the active cards allow this turn (rules 4.3, 5.1-5.4)."""

    hunt: int  # bit mask over territories (Råttspår)
    fat: int  # +stones per catch (Feta råttor)
    double: bool  # Storfångst
    doors: int  # bit mask of open doors (incl. Fönstret på glänt)
    free_move: bool  # Pigg katt
    nest: bool  # Råttboet
    happen: tuple[int, ...]  # HAPPEN cards in clock-position order


@dataclass(slots=True)
class FightState:
    """A fight in progress (rule 7.2). ``pending`` is the attacker's hidden submission."""

    attacker: int
    defender: int
    territory: int
    hits_a: int = 0
    hits_d: int = 0
    commit_a: int = 0
    commit_d: int = 0
    pending: int | None = None  # None: not yet in; -1: surrender; n: bid
    round: int = 1
    last: tuple[int, int] | None = None  # the last revealed (attacker, defender) submissions

    def copy(self) -> FightState:
        return FightState(
            self.attacker,
            self.defender,
            self.territory,
            self.hits_a,
            self.hits_d,
            self.commit_a,
            self.commit_d,
            self.pending,
            self.round,
            self.last,
        )


def _copy_fight(f: FightState | None) -> FightState | None:
    return None if f is None else f.copy()


_NAMES = tuple(f"P{seat + 1}" for seat in range(8))
"""Seat names in texts: P1, P2, …"""


class LastBoard:
    """Answers by seat about the last board asked about, kept by identity: a board is its
    owners' tuple (:attr:`RevirState.owner`, replaced when a fight changes it, never changed in
    place) and its map. A search's playouts ask about the same board again and again. The
    board and its answers are one tuple, read once and replaced whole, so threads asking at
    once never mix two boards."""

    def __init__(self) -> None:
        self._last: tuple[object, object, dict[int, tuple[int, ...]]] = (None, None, {})

    def of(self, owner: tuple[int, ...], geo: object) -> dict[int, tuple[int, ...]]:
        """The answers kept for this board (by seat); an empty dict for a new board."""
        last = self._last
        if last[0] is owner and last[1] is geo:
            return last[2]
        answers: dict[int, tuple[int, ...]] = {}
        self._last = (owner, geo, answers)
        return answers


_COUNTS = LastBoard()
""":meth:`RevirState.counts_of` of the last board."""
_FIGHTS: dict[str, Fight] = {}
"""Memo: the ``fight XX`` action per territory id (actions are immutable values)."""


# --------------------------------------------------------------------------- state


@state(copy={"fight": _copy_fight})
class RevirState(State[RevirAction]):
    """A Revir position.

    ``scores()`` ranks the players as the turn cap does (rule 9.3): per seat
    ``best * 1_000_000 + territories * 1_000 + stones``, where ``best`` is the most territories
    the seat holds in one colour, ``territories`` all it holds and ``stones`` its power stones
    (read in decimal: ``3_007_012`` is 3 of one colour, 7 territories, 12 stones). The game is
    won otherwise, though: by the first complete colour series (``final_outcome``), or at
    the turn cap by that ranking, a full tie being a shared win.
    """

    geo: Geometry
    o: RevirOptions
    k: int
    """The card clock's size (places, K)."""
    pile: tuple[int, ...]
    """The event pile, top (this turn's card, face up) first; card indices."""
    circle: tuple[int, ...]
    """The clock's places (card index or EMPTY); the pile stands on place ``p``."""
    p: int
    t: int
    """The turn counter (1 on the first turn)."""
    known: int
    """How many cards at the bottom of the pile every seat has seen go under."""
    stones: tuple[int, ...]
    bank: int
    owner: tuple[int, ...]
    """The owner of each territory (by territory index)."""
    pos: tuple[int, ...]
    """Each cat's square (by square index)."""
    active: int
    """The seat whose turn (drag) it is (``to_act`` differs only for the defender in a fight)."""
    phase: str
    """``move``, ``act``, ``bid`` or ``over``."""
    fight: FightState | None
    eff: Effects
    winners: tuple[int, ...] | None
    start_rolls: tuple[tuple[int, ...], ...]
    _legal: list[RevirAction] | None

    # ------------------------------------------------------------------ basics

    def new_card(self) -> int:
        """The card revealed this turn (the top of the pile, face up)."""
        return self.pile[0]

    def clock_positions(self) -> list[int]:
        """Card index per clock position (EMPTY where none); the pile's top lies at ``p``."""
        c = list(self.circle)
        if self.t >= 1:
            c[self.p] = self.pile[0]
        return c

    def visible_cards(self) -> list[int]:
        return [c for c in self.clock_positions() if c != EMPTY]

    def avail(self, seat: int) -> int:
        f = self.fight
        if f is None:
            return self.stones[seat]
        if seat == f.attacker:
            return self.stones[seat] - f.commit_a
        if seat == f.defender:
            return self.stones[seat] - f.commit_d
        return self.stones[seat]

    def _gain(self, seat: int, n: int) -> int:
        """Pay up to ``n`` from the bank to ``seat`` (rule 5.5); returns what was paid."""
        n = min(n, self.bank)
        if n > 0:
            st = list(self.stones)
            st[seat] += n
            self.stones = tuple(st)
            self.bank -= n
        return n

    def _pay(self, seat: int, n: int) -> int:
        """``seat`` pays up to ``n`` to the bank; returns what was paid."""
        n = min(n, self.stones[seat])
        if n > 0:
            st = list(self.stones)
            st[seat] -= n
            self.stones = tuple(st)
            self.bank += n
        return n

    def owned(self, seat: int) -> list[int]:
        return [i for i, o in enumerate(self.owner) if o == seat]

    def colour_counts(self, seat: int) -> list[int]:
        """How many territories ``seat`` holds of each colour (by colour index)."""
        return list(self.counts_of(seat))

    def counts_of(self, seat: int) -> tuple[int, ...]:
        """:meth:`colour_counts` as a tuple, remembered for the last board asked about (by
        identity: :attr:`owner` is replaced, never changed, and a search's playouts ask about
        the same board again and again: :class:`LastBoard`)."""
        owner, geo = self.owner, self.geo
        answers = _COUNTS.of(owner, geo)
        got = answers.get(seat)
        if got is None:
            counts = [0] * len(geo.colour_ids)
            for c, o in zip(geo.t_colour, owner, strict=True):
                if o == seat:
                    counts[c] += 1
            got = answers[seat] = tuple(counts)
        return got

    def has_series(self, seat: int) -> bool:
        need = self.o.series_needed
        sizes = self.geo.colour_size
        return any(n >= min(need, sizes[c]) for c, n in enumerate(self.colour_counts(seat)))

    # ------------------------------------------------------------------ the card clock

    def _compute_effects(self) -> Effects:
        key = (id(self.geo), self.circle, self.p, self.pile[0])
        eff = _EFFECTS.get(key)
        if eff is None:
            if len(_EFFECTS) > 200_000:
                _EFFECTS.clear()
            eff = _EFFECTS[key] = self._effects_now()
        return eff

    def _effects_now(self) -> Effects:
        geo = self.geo
        cards = geo.cards
        new = self.pile[0]
        hunt = fat = doors = 0
        double = free = nest = False
        happen: list[int] = []
        for c in self.clock_positions():
            if c == EMPTY:
                continue
            card = cards[c]
            if card.kind == "once" and c != new:
                continue  # an old ONCE card is visible but does nothing (rule 4.3)
            hunt |= geo.card_hunt_mask[c]
            fat += card.fat
            double = double or card.double
            doors |= geo.card_door_mask[c]
            free = free or card.free_move
            nest = nest or card.nest
            if card.window:
                doors |= geo.all_doors
            if card.kind == "happen":
                happen.append(c)
        return Effects(hunt, fat, double, doors, free, nest, tuple(happen))

    def _advance_clock(self) -> None:
        """Rule 4.1: one turn of the card clock (the covered card goes under the pile)."""
        self.t = t = self.t + 1
        if t > 1:
            pile = self.pile
            circle = list(self.circle)
            circle[self.p] = pile[0]
            rest = pile[1:]
            known = min(self.known, len(rest))
            self.p = p = (self.p + 1) % self.k
            covered = circle[p]
            if covered != EMPTY:
                rest = (*rest, covered)
                circle[p] = EMPTY
                known += 1
            if self.o.reshuffle_each_cycle and (t - 1) % self.geo.ncards == 0:
                shuffled = list(rest)
                self.rng.shuffle(shuffled)
                rest = tuple(shuffled)
                known = 0
            self.pile, self.circle, self.known = rest, tuple(circle), known

    def _start_turn(self, events: list[Event]) -> None:
        """Phase 1: reveal an event card and resolve a ONCE card's instant part."""
        self._advance_clock()
        self.eff = self._compute_effects()
        c = self.pile[0]
        card = self.geo.cards[c]
        a = self.active
        events.append(
            {
                "kind": "reveal",
                "seat": a,
                "card": card.id,
                "position": self.p,
                "turn": self.t,
                "text": f"Turn {self.t}: {_NAMES[a]} turns up {card.id} {card.sv} ({card.text})",
            }
        )
        self._resolve_once(events)
        self.phase = "move"
        self.fight = None
        self.to_act = a
        self._legal = None

    def _resolve_once(self, events: list[Event]) -> None:
        card = self.geo.cards[self.pile[0]]
        if card.kind != "once":
            return
        a = self.active
        if card.gain:
            got = self._gain(a, card.gain)
            events.append(
                {
                    "kind": "gain",
                    "seat": a,
                    "stones": got,
                    "card": card.id,
                    "text": f"{_NAMES[a]} gains {got} from {card.sv}",
                }
            )
        if card.dog and not self.geo.indoor[self.pos[a]]:
            paid = self._pay(a, card.dog)
            events.append(
                {
                    "kind": "pay",
                    "seat": a,
                    "stones": paid,
                    "card": card.id,
                    "text": f"{_NAMES[a]} is outdoors and pays {paid}: {card.sv}",
                }
            )

    # ------------------------------------------------------------------ legal actions

    def legal(self) -> list[RevirAction]:
        if self.to_act is None:
            return []  # over (also when the base stopped the game at the decision bound)
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def _compute_legal(self) -> list[RevirAction]:
        ph = self.phase
        if ph == "move":
            return self._moves()
        if ph == "act":
            return self._acts()
        if ph == "bid":
            seat = self.to_act
            assert seat is not None
            return list(bids(self.avail(seat)))
        return []

    def max_steps(self, seat: int) -> int:
        return 10**6 if self.eff.free_move else self.stones[seat] + 1

    def _moves(self) -> list[RevirAction]:
        a = self.active
        here = self.pos[a]
        lim = min(self.max_steps(a), self.geo.n)
        key = (id(self.geo), self.eff.doors, here, lim)
        cached = _MOVES.get(key)
        if cached is None:
            row = self.geo.dist[self.eff.doors][here]
            ids = self.geo.ids
            cached = (STAY, *(Move(ids[q]) for q, d in enumerate(row) if 0 < d <= lim))
            _MOVES[key] = cached
        return list(cached)

    def fight_targets(self) -> list[int]:
        """Territories the active player may fight over now (rule 7.1), by index."""
        a = self.active
        pos = self.pos
        q = pos[a]
        geo = self.geo
        owner = self.owner
        tr = geo.square_terr[q]
        own = [tr] if tr >= 0 and owner[tr] != a else []  # (a): standing on another's territory
        if geo.indoor[q] or pos.count(q) == 1 or not (self.o.first_turn_fights or self.t > self.seats):
            return own
        # (b): on the same outdoor square as an owner: any territory of that owner
        there = {j for j in range(self.seats) if j != a and pos[j] == q}
        return [i for i, o in enumerate(owner) if o in there or i in own]

    def can_hunt(self) -> bool:
        a = self.active
        tr = self.geo.square_terr[self.pos[a]]
        return tr >= 0 and self.owner[tr] == a and (bool(self.eff.hunt >> tr & 1) or self.eff.nest)

    def _acts(self) -> list[RevirAction]:
        terr = self.geo.territories
        out: list[RevirAction] = []
        for i in self.fight_targets():
            t = terr[i]
            fight = _FIGHTS.get(t)
            if fight is None:
                fight = _FIGHTS[t] = Fight(t)
            out.append(fight)
        if self.can_hunt():
            out.append(Hunt(self.geo.ids[self.pos[self.active]]))
        out.append(PASS)
        return out

    # ------------------------------------------------------------------ play

    def apply(self, action: RevirAction) -> list[Event]:
        if self.to_act is None:
            raise GameOver(f"{TITLE}: the game is over")
        legal = self._legal
        if legal is None:
            legal = self.legal()
        for x in legal:  # the actions of legal() are shared values: identity is the fast path
            if x is action:
                break
        else:
            if action not in legal:
                raise IllegalAction(self._why(action))
        events: list[Event] = []
        self._legal = None
        if isinstance(action, Stay | Move):
            self._do_move(action, events)
        elif isinstance(action, Pass):
            events.append(
                {"kind": "pass", "seat": self.active, "text": f"{_NAMES[self.active]} ends the turn"}
            )
            self._end_turn(events)
        elif isinstance(action, Hunt):
            self._do_hunt(events)
        elif isinstance(action, Fight):
            self._do_fight(action, events)
        elif isinstance(action, Bid):
            self._do_bid(action.stones, events)
        else:
            self._do_bid(SURRENDER, events)
        return events

    def _why(self, action: RevirAction) -> str:
        ph = self.phase
        if isinstance(action, Stay | Move):
            if ph != "move":
                return f"{TITLE}: movement is not possible now ({ph} phase)"
            if isinstance(action, Move):
                q = self.geo.index.get(action.to)
                if q is None:
                    return f"{TITLE}: there is no square {action.to}"
                d = self.geo.dist[self.eff.doors][self.pos[self.active]][q]
                if d < 0:
                    return f"{TITLE}: {action.to} cannot be reached; the doors (dörrar) in the way are closed"
                if d == 0:
                    return f"{TITLE}: the cat is already on {action.to}; use 'stay'"
                have = self.stones[self.active]
                return f"{TITLE}: {action.to} is {d} steps away and costs {d - 1} stones; you have {have}"
        if isinstance(action, Fight | Hunt | Pass):
            if ph != "act":
                return f"{TITLE}: fighting or hunting is not possible now ({ph} phase)"
            if isinstance(action, Hunt):
                return (
                    f"{TITLE}: no rat hunt on {action.square}: you must own it, stand on it, "
                    "and a Råttspår card (or Råttboet) must allow it"
                )
            if isinstance(action, Fight):
                return (
                    f"{TITLE}: no fight over {action.territory}: stand on another's territory, "
                    "or on the same outdoor square as its owner"
                )
        if isinstance(action, Bid | Surrender):
            if ph != "bid":
                return f"{TITLE}: there is no fight to bid in"
            if isinstance(action, Bid):
                return f"{TITLE}: you can bid 0 to {self.avail(self.to_act or 0)} stones, not {action.stones}"
        return f"{TITLE}: {action} is not a legal action now"

    def _do_move(self, action: Stay | Move, events: list[Event]) -> None:
        a = self.active
        if isinstance(action, Move):
            q = self.geo.index[action.to]
            d = self.geo.dist[self.eff.doors][self.pos[a]][q]
            cost = 0 if self.eff.free_move else max(0, d - 1)
            paid = self._pay(a, cost)
            pos = list(self.pos)
            pos[a] = q
            self.pos = tuple(pos)
            events.append(
                {
                    "kind": "move",
                    "seat": a,
                    "to": action.to,
                    "steps": d,
                    "cost": paid,
                    "text": f"{_NAMES[a]} walks {d} step{'s' if d != 1 else ''} to {action.to}"
                    f" for {paid} stone{'s' if paid != 1 else ''}",
                }
            )
        else:
            events.append(
                {"kind": "stay", "seat": a, "text": f"{_NAMES[a]} stays on {self.geo.ids[self.pos[a]]}"}
            )
        self._happenings(events)
        self.phase = "act"
        acts = self._acts()
        if len(acts) == 1:  # only 'pass': skip the decision
            self._end_turn(events)
        else:
            self._legal = acts

    def _happenings(self, events: list[Event]) -> None:
        """Step 2b: every visible HAPPEN card pays the active player (rule 5.3)."""
        if not self.eff.happen:
            return
        geo = self.geo
        a = self.active
        who = [a] if self.o.happenings == "active" else [(a + i) % self.seats for i in range(self.seats)]
        for c in self.eff.happen:
            card = geo.cards[c]
            mask = geo.card_food_mask[c]
            for s in who:
                if mask >> self.pos[s] & 1:
                    got = self._gain(s, card.food)
                    events.append(
                        {
                            "kind": "gain",
                            "seat": s,
                            "stones": got,
                            "card": card.id,
                            "text": f"{_NAMES[s]} gains {got}: {card.sv}",
                        }
                    )

    def rat_gain(self, tr: int, roll: int) -> int:
        """Stones a roll gives on territory ``tr`` under this turn's cards (rule 8.2, D18)."""
        prof = self.geo.t_profile[tr]
        if roll not in prof.catches:
            return 0
        mult = 2 if self.eff.double else 1
        if self.o.rat_bonus_order == "double_then_add":
            return prof.gain * mult + self.eff.fat
        return (prof.gain + self.eff.fat) * mult

    def _do_hunt(self, events: list[Event]) -> None:
        a = self.active
        q = self.pos[a]
        tr = self.geo.square_terr[q]
        roll = self.rng.die(6)
        due = self.rat_gain(tr, roll)
        got = self._gain(a, due)
        events.append(
            {
                "kind": "hunt",
                "seat": a,
                "square": self.geo.ids[q],
                "roll": roll,
                "stones": got,
                "text": f"{_NAMES[a]} hunts rats on {self.geo.ids[q]}, rolls {roll}"
                + (f" and catches one: +{got}" if due else ": nothing"),
            }
        )
        self._end_turn(events)

    def _do_fight(self, action: Fight, events: list[Event]) -> None:
        tr = self.geo.tindex[action.territory]
        d = self.owner[tr]
        a = self.active
        self.fight = FightState(a, d, tr)
        self.phase = "bid"
        self.to_act = a
        events.append(
            {
                "kind": "fight",
                "seat": a,
                "defender": d,
                "territory": action.territory,
                "text": f"{_NAMES[a]} attacks {_NAMES[d]} over {action.territory}",
            }
        )

    def _do_bid(self, n: int, events: list[Event]) -> None:
        f = self.fight
        assert f is not None
        if self.to_act == f.attacker:
            f.pending = n
            self.to_act = f.defender
            events.append(
                {
                    "kind": "commit",
                    "seat": f.attacker,
                    "round": f.round,
                    "text": f"{_NAMES[f.attacker]} has made a hidden submission",
                }
            )
            return
        a_sub = f.pending
        assert a_sub is not None
        f.pending = None
        f.last = (a_sub, n)
        shown = ["surrenders" if x == SURRENDER else f"bids {x}" for x in (a_sub, n)]
        events.append(
            {
                "kind": "reveal_bids",
                "seat": f.defender,
                "round": f.round,
                "attacker": a_sub,
                "defender": n,
                "text": f"Round {f.round}: {_NAMES[f.attacker]} {shown[0]}, {_NAMES[f.defender]} {shown[1]}",
            }
        )
        if a_sub == SURRENDER or n == SURRENDER:
            self._end_fight(attacker_won=a_sub != SURRENDER, how="surrender", events=events)
            return
        f.commit_a += a_sub
        f.commit_d += n
        if a_sub > n:
            f.hits_a += 1
        elif n > a_sub:
            f.hits_d += 1
        elif self.o.tie_hits == "both" and a_sub > 0:
            f.hits_a += 1
            f.hits_d += 1
        h = self.o.hits_to_win
        if f.hits_a >= h:
            self._end_fight(True, "hits", events)
        elif f.hits_d >= h:
            self._end_fight(False, "hits", events)
        elif (a_sub == 0 and n == 0) or (self.avail(f.attacker) == 0 and self.avail(f.defender) == 0):
            self._end_fight(False, "undecided", events)
        else:
            f.round += 1
            self.to_act = f.attacker

    def _end_fight(self, attacker_won: bool, how: str, events: list[Event]) -> None:
        """Rule 7.3: damage to the bank, stakes returned, the card handed over."""
        f = self.fight
        assert f is not None
        self.fight = None
        pa = self._pay(f.attacker, f.hits_d)
        pd = self._pay(f.defender, f.hits_a)
        tid = self.geo.territories[f.territory]
        text = (
            f"The fight over {tid} ends ({how}), hits {f.hits_a}-{f.hits_d}: "
            f"{_NAMES[f.attacker]} pays {pa}, {_NAMES[f.defender]} pays {pd}"
        )
        if attacker_won:
            owner = list(self.owner)
            owner[f.territory] = f.attacker
            self.owner = tuple(owner)
            text += f"; {_NAMES[f.attacker]} conquers {tid}"
        events.append(
            {
                "kind": "fight_end",
                "seat": f.attacker,
                "defender": f.defender,
                "territory": tid,
                "hits": [f.hits_a, f.hits_d],
                "paid": [pa, pd],
                "won": attacker_won,
                "how": how,
                "text": text,
            }
        )
        if attacker_won and self.has_series(f.attacker):
            self._finish((f.attacker,), events, f"{_NAMES[f.attacker]} holds a complete series and wins")
            return
        self._end_turn(events)

    def _end_turn(self, events: list[Event]) -> None:
        if self.o.max_turns and self.t >= self.o.max_turns:
            self._finish(self.ranking_winners(), events, f"The turn cap {self.o.max_turns} is reached")
            return
        self.active = (self.active + 1) % self.seats
        self._start_turn(events)

    def ranking_winners(self) -> tuple[int, ...]:
        """Rule 9.3: best single colour, then territories, then stones; ties share the win."""
        keys = [(max(self.colour_counts(s)), len(self.owned(s)), self.stones[s]) for s in range(self.seats)]
        best = max(keys)
        return tuple(s for s in range(self.seats) if keys[s] == best)

    def _finish(self, winners: tuple[int, ...], events: list[Event], why: str) -> None:
        self.winners = winners
        self.phase = "over"
        self.to_act = None
        self.fight = None
        self._legal = None
        events.append(
            {
                "kind": "game_over",
                "winners": list(winners),
                "text": f"{why}. Winner: {', '.join(_NAMES[w] for w in winners)}",
            }
        )

    # ------------------------------------------------------------------ information

    def scores(self) -> tuple[float, ...]:
        """Per seat ``best * 1_000_000 + territories * 1_000 + stones``: the turn cap's ranking
        (rule 9.3) as one number (see the class docstring)."""
        out = []
        for s in range(self.seats):
            counts = self.colour_counts(s)
            out.append(float(max(counts) * 1_000_000 + sum(counts) * 1_000 + self.stones[s]))
        return tuple(out)

    def final_outcome(self) -> tuple[float, ...]:
        """The first complete series wins (rule 9.1); at the turn cap the best ranked seats
        share the win (rule 9.3): ``1/k`` each for ``k`` of them."""
        winners = self.winners if self.winners is not None else self.ranking_winners()
        return win_outcome(winners, self.teams(), self.seats)

    def view(self, seat: int | None) -> dict[str, Any]:
        return build_view(self, seat)

    def determinize(self, seat: int, rng: Rng) -> RevirState:
        s = self.copy()
        pile = self.pile
        lo, hi = 1, len(pile) - self.known
        if hi - lo > 1:
            hidden = sorted(pile[lo:hi])  # a canonical order: the sample must not depend on the real one
            rng.shuffle(hidden)
            s.pile = (*pile[:lo], *hidden, *pile[hi:])
        f = s.fight
        if f is not None and f.pending is not None and seat != f.attacker:
            n = self.avail(f.attacker)
            f.pending = rng.randrange(n + 2) - 1  # a bid 0..n or -1 (surrender)
        # With stones_public false the holdings are still derivable from public events, so
        # they are kept as they are (D20).
        s.rng = rng.spawn()
        return s  # the legal list (cached) is the same: it depends on nothing re-sampled here

    def check(self) -> None:
        assert all(x >= 0 for x in self.stones), f"negative stones {self.stones}"
        assert self.bank >= 0, "negative bank"
        assert sum(self.stones) + self.bank == self.o.bank_total, "stones not conserved"
        assert len(self.owner) == self.geo.nterr and all(0 <= o < self.seats for o in self.owner)
        cards = list(self.pile) + [c for c in self.circle if c != EMPTY]
        assert sorted(cards) == list(range(self.geo.ncards)), "card clock lost a card"
        assert self.circle[self.p] == EMPTY, "a card under the pile"
        assert all(0 <= q < self.geo.n for q in self.pos)
        f = self.fight
        if f is not None:
            assert 0 <= f.commit_a <= self.stones[f.attacker]
            assert 0 <= f.commit_d <= self.stones[f.defender]
            assert f.hits_a < self.o.hits_to_win and f.hits_d < self.o.hits_to_win
            if f.pending is not None:
                assert f.pending <= self.avail(f.attacker)
        if self.winners is None:
            assert not any(self.has_series(s) for s in range(self.seats)), "a series before the end"
        n_vis = len(self.visible_cards())
        assert n_vis == min(self.t, self.k), f"{n_vis} cards visible at turn {self.t}"


# --------------------------------------------------------------------------- the game


@mypyc_attr(allow_interpreted_subclasses=True)
class RevirGame(Game[RevirOptions, RevirState]):
    """Revir (Swedish): cats on Tviksta Gård fight over territories with hidden bids of
    power stones; the first to hold a complete colour series (revirserie) wins."""

    id = "revir"
    title = TITLE
    seats = range(2, 5)
    kind = GameKind(
        hidden_information=True,  # the pile's order; the attacker's bid until the defender's is in
        chance=True,  # the shuffled pile, the start roll, the rat hunt's die
        public_actions=False,  # a 'bid N' text is secret until both bids of the round are in
        # 400 turns (the default cap) x (move + act + at most 81 fight rounds of 2 bids, with
        # 80 stones in the game) bounds every game at the default options.
        max_decisions=66_000,
        secret_choices=True,  # the fight's bids are sealed and answered unseen
    )
    version = 1
    Options = RevirOptions
    summary = "Cats fight over farm territories with hidden bids of power stones; complete a colour series"
    languages = ("en", "sv")
    # A short game: the real win condition, capped at 80 turns (a few hundred decisions).
    quick_options: ClassVar[dict[str, Any]] = {"max_turns": 80}

    def __init__(self, geometry: Geometry = GEOMETRY) -> None:
        self.geo = geometry
        self.board = geometry.board

    def board_data(self) -> dict[str, Any]:
        """The farm and the deck (the same object every view carries as ``board``)."""
        return self.geo.board

    def clock_size(self, seats: int, o: RevirOptions) -> int:
        return o.clock_size or self.geo.edition.clock_sizes[seats]

    def new(self, seats: int, seed: int, options: RevirOptions | None = None) -> RevirState:
        self.check_seats(seats)
        s = self.setup(seats, seed, options)
        s._start_turn([])
        return s

    def setup(
        self, seats: int, seed: int, options: RevirOptions | None = None, order: list[str] | None = None
    ) -> RevirState:
        """Rule 2 up to (not including) the first reveal. ``order`` fixes the event deck (tests)."""
        self.check_seats(seats)
        o = options or RevirOptions()
        geo = self.geo
        s = RevirState.__new__(RevirState)
        s.start(self, seats, Rng(seed))
        s.geo, s.o = geo, o
        s.k = self.clock_size(seats, o)
        if s.k > geo.ncards:
            raise IllegalAction(f"{TITLE}: the card clock cannot be larger than the deck")
        # 2.2 territory cards, dealt again while someone would start with a series. The
        # colour round robin gives the same counts every time, so one failure is final; a
        # shuffled deal gets a bounded number of tries.
        for attempt in range(1000):
            seq: list[int] = []
            if o.deal == "colour_round_robin":
                for c in range(len(geo.colour_ids)):
                    block = [i for i in range(geo.nterr) if geo.t_colour[i] == c]
                    s.rng.shuffle(block)
                    seq += block
            else:
                seq = list(range(geo.nterr))
                s.rng.shuffle(seq)
            owner = [0] * geo.nterr
            for n, i in enumerate(seq):
                owner[i] = n % seats
            s.owner = tuple(owner)
            s.winners = None
            if not any(s.has_series(p) for p in range(seats)):
                break
            if o.deal == "colour_round_robin" or attempt == 999:
                raise OptionError(
                    f"{TITLE}: with series_needed {o.series_needed} the deal ({o.deal}) hands "
                    f"{seats} players a winning series before the first turn; raise series_needed"
                )
        # 2.3 stones, 2.4 cats
        each = o.start_stones
        if each * seats > o.bank_total:
            raise IllegalAction(f"{TITLE}: {seats} x {each} stones exceed the {o.bank_total} in the game")
        s.stones = (each,) * seats
        s.bank = o.bank_total - each * seats
        s.pos = (geo.start,) * seats
        # 2.5 the die decides who starts; ties re-roll among themselves
        rolls: list[tuple[int, ...]] = []
        contenders = list(range(seats))
        while True:
            r = tuple(s.rng.die(6) if i in contenders else 0 for i in range(seats))
            rolls.append(r)
            top = max(r)
            contenders = [i for i in contenders if r[i] == top]
            if len(contenders) == 1:
                break
        s.start_rolls = tuple(rolls)
        s.active = contenders[0]
        # 2.6 the event pile
        if order is not None:
            pile = [geo.card_index[c] for c in order]
            pile += [i for i in range(geo.ncards) if i not in pile]
        else:
            pile = list(range(geo.ncards))
            s.rng.shuffle(pile)
        s.pile = tuple(pile)
        s.circle = (EMPTY,) * s.k
        s.p = 0
        s.t = 0
        s.known = 0
        s.fight = None
        s.phase = "move"
        s.to_act = s.active
        s.eff = Effects(0, 0, False, 0, False, False, ())
        s._legal = None
        return s

    def parse(self, state: RevirState, text: str) -> RevirAction:
        """Any well-formed action (so ``play`` can say why it is illegal)."""
        if state.to_act is None:
            raise GameOver(f"{TITLE}: the game is over")
        return parse_action(text)
