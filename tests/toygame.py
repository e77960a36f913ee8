"""A tiny hidden-information card game used to test the contract machinery itself, and the
template for a new game (see docs/adding-a-game.md).

Two or three seats, cards 1..12 shuffled, three cards each; each trick every seat plays one
card, the highest takes the trick (1 point). Hands are hidden; played cards are public.
A real game splits this file into the package modules named in the comments.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from spillebord.ai import Budget, GameBots, Needs, register_bots
from spillebord.core import Action, Event, Game, GameKind, IllegalAction, Rng, State, opt, state

# ---------------------------------------------------------------- options.py


@dataclass(frozen=True, slots=True)
class ToyOptions:
    hand_size: int = opt(3, "cards per seat", min=1, max=4)


# ---------------------------------------------------------------- actions.py


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play a card (Spil et kort)."""

    card: int

    def __str__(self) -> str:
        return f"play {self.card}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "play", "card": self.card}


# ---------------------------------------------------------------- rules.py


@state(copy={"hands": list})
class ToyState(State[Play]):
    hands: list[tuple[int, ...]]
    table: tuple[tuple[int, int], ...]
    points: tuple[int, ...]

    def legal(self) -> list[Play]:
        if self.to_act is None:
            return []
        return [Play(c) for c in sorted(self.hands[self.to_act])]

    def apply(self, action: Play) -> list[Event]:
        seat = self.to_act
        if seat is None:
            raise IllegalAction("Toy: the game is over")
        if not isinstance(action, Play) or action.card not in self.hands[seat]:
            raise IllegalAction(f"Toy: seat {seat} does not hold {action}")
        self.hands[seat] = tuple(c for c in self.hands[seat] if c != action.card)
        self.table = (*self.table, (seat, action.card))
        events: list[Event] = [{"kind": "play", "seat": seat, "card": action.card}]
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

    def scores(self) -> tuple[float, ...]:
        """Tricks taken."""
        return tuple(float(p) for p in self.points)

    def determinize(self, seat: int, rng: Rng) -> ToyState:
        s = self.copy()
        # sorted first: the sample must depend only on what ``seat`` sees, not on where the
        # unseen cards really are
        pool = sorted(c for i, h in enumerate(self.hands) if i != seat for c in h)
        rng.shuffle(pool)
        for i, h in enumerate(self.hands):
            if i != seat:
                s.hands[i], pool = tuple(pool[: len(h)]), pool[len(h) :]
        s.rng = rng.spawn()
        return s

    def check(self) -> None:
        cards = [c for h in self.hands for c in h] + [c for _, c in self.table]
        assert len(cards) == len(set(cards)), "a card is in two places"


class ToyGame(Game[ToyOptions, ToyState]):
    id = "toy"
    title = "Toy"
    seats = range(2, 4)
    kind = GameKind(hidden_information=True, chance=True, public_actions=True, max_decisions=100)
    Options = ToyOptions
    summary = "a three-trick test game"

    def new(self, seats: int, seed: int, options: ToyOptions | None = None) -> ToyState:
        self.check_seats(seats)
        o = options or ToyOptions()
        s = ToyState.__new__(ToyState)
        s.start(self, seats, Rng(seed))
        deck = list(range(1, 13))
        s.rng.shuffle(deck)
        s.hands = [tuple(sorted(deck[i * o.hand_size : (i + 1) * o.hand_size])) for i in range(seats)]
        s.table, s.points, s.to_act = (), (0,) * seats, 0
        return s


# ---------------------------------------------------------------- bots.py


def evaluate(state: State[Any], seat: int) -> float:
    assert isinstance(state, ToyState)
    # Tricks first; among equal tricks keep the high cards for later.
    return 100.0 * state.points[seat] + sum(state.hands[seat])


class LowestAgent:
    """Plays its lowest card (a weak, predictable bot for tests)."""

    name = "lowest"
    needs: ClassVar[Needs] = Needs(determinization=False)

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game

    def act(self, state: State[Any], seat: int, rng: Rng, budget: Budget | None = None) -> Action:
        return state.legal()[0]


# ---------------------------------------------------------------- __init__.py

TOY = ToyGame()
register_bots(TOY, GameBots(evaluate=evaluate, agents={"lowest": LowestAgent}, best="greedy"))
