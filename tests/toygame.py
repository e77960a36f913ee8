"""A tiny hidden-information card game used to test the contract machinery itself.

Two or three seats, cards 1..12 shuffled, three cards each; each trick every seat plays one
card, the highest takes the trick (1 point). Hands are hidden; played cards are public.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spillebord.core import Action, Game, IllegalAction, Rng, State, opt


@dataclass(frozen=True, slots=True)
class Play(Action):
    card: int

    def __str__(self) -> str:
        return f"play {self.card}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "play", "card": self.card}


@dataclass(frozen=True, slots=True)
class ToyOptions:
    hand_size: int = opt(3, "cards per seat", min=1, max=4)


class ToyState(State[Play]):
    __slots__ = ("game", "hands", "points", "rng", "seats", "table", "to_act")

    def legal(self) -> list[Play]:
        if self.to_act is None:
            return []
        return [Play(c) for c in sorted(self.hands[self.to_act])]

    def play(self, action: Play) -> list[dict[str, Any]]:
        seat = self.to_act
        if seat is None:
            raise IllegalAction("Toy: the game is over")
        if not isinstance(action, Play) or action.card not in self.hands[seat]:
            raise IllegalAction(f"Toy: seat {seat} does not hold {action}")
        self.hands[seat] = tuple(c for c in self.hands[seat] if c != action.card)
        self.table = (*self.table, (seat, action.card))
        events = [{"kind": "play", "seat": seat, "card": action.card}]
        if len(self.table) == self.seats:
            winner = max(self.table, key=lambda t: t[1])[0]
            self.points = tuple(p + (i == winner) for i, p in enumerate(self.points))
            self.table = ()
            events.append({"kind": "trick", "seat": winner})
            self.to_act = winner if self.hands[winner] else None
        else:
            self.to_act = (seat + 1) % self.seats
        return events

    def view(self, seat: int | None) -> dict[str, Any]:
        return {
            "hand": sorted(self.hands[seat]) if seat is not None else None,
            "hand_sizes": [len(h) for h in self.hands],
            "table": [list(t) for t in self.table],
            "points": list(self.points),
            "to_act": self.to_act,
        }

    def result(self) -> tuple[float, ...] | None:
        return tuple(float(p) for p in self.points) if self.to_act is None else None

    def copy(self) -> ToyState:
        s = ToyState.__new__(ToyState)
        s.game, s.seats, s.to_act = self.game, self.seats, self.to_act
        s.hands, s.table, s.points, s.rng = list(self.hands), self.table, self.points, self.rng.copy()
        return s

    def determinize(self, seat: int, rng: Rng) -> ToyState:
        s = self.copy()
        pool = [c for i, h in enumerate(self.hands) if i != seat for c in h]
        rng.shuffle(pool)
        for i, h in enumerate(self.hands):
            if i != seat:
                s.hands[i], pool = tuple(pool[: len(h)]), pool[len(h) :]
        s.rng = rng.spawn()
        return s

    def check(self) -> None:
        cards = [c for h in self.hands for c in h] + [c for _, c in self.table]
        assert len(cards) == len(set(cards)), "a card is in two places"


class ToyGame(Game[ToyOptions]):
    id = "toy"
    title = "Toy"
    seats = range(2, 4)
    Options = ToyOptions
    summary = "a three-trick test game"

    def new(self, seats: int, seed: int, options: ToyOptions | None = None) -> ToyState:
        self.check_seats(seats)
        o = options or ToyOptions()
        s = ToyState.__new__(ToyState)
        s.game, s.seats, s.rng = self, seats, Rng(seed)
        deck = list(range(1, 13))
        s.rng.shuffle(deck)
        s.hands = [tuple(sorted(deck[i * o.hand_size : (i + 1) * o.hand_size])) for i in range(seats)]
        s.table, s.points, s.to_act = (), (0,) * seats, 0
        return s

    def evaluate(self, state: State[Any], seat: int) -> float:
        assert isinstance(state, ToyState)
        # Tricks first; among equal tricks keep the high cards for later.
        return 100.0 * state.points[seat] + sum(state.hands[seat])


TOY = ToyGame()
