"""The generic ISMCTS agent: reproducible, stronger than random, fair, and sound at secret
choices."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spillebord.ai import Budget, GameBots, IsmctsAgent, register_bots
from spillebord.arena import BotSpec, Tournament, run
from spillebord.core import Action, Event, Game, GameKind, IllegalAction, Rng, State, registry, state
from toygame import TOY, LowestAgent

registry.register(TOY)


def test_same_seed_and_iterations_give_the_same_analysis() -> None:
    s = TOY.new(2, seed=4)
    a = IsmctsAgent(TOY).analyse(s, 0, Rng(1), Budget(iterations=300))
    b = IsmctsAgent(TOY).analyse(s, 0, Rng(1), Budget(iterations=300))
    assert a == b
    assert sum(v for _, v, _ in a) == 300  # every iteration went through one root action


def test_ismcts_beats_random_at_the_toy_game() -> None:
    r = run(
        Tournament("toy", (BotSpec("ismcts", Budget(iterations=100)), BotSpec("random")), games=200, seed=2)
    )
    assert r.bots["ismcts@100it"].interval[0] > 0.5


# Matching pennies as a card game: seat 0 lays a coin face down (a secret choice), seat 1
# then guesses it and wins on a match. Whatever seat 0 does, it wins half the time against a
# seat that cannot see the coin. A search that let seat 1's statistics depend on the hidden
# coin would believe every choice loses.


@dataclass(frozen=True, slots=True)
class Coin(Action):
    side: int

    def __str__(self) -> str:
        return f"coin {self.side}"


@dataclass(frozen=True, slots=True)
class PenniesOptions:
    pass


@state
class PenniesState(State[Coin]):
    laid: int | None
    guess: int | None

    def legal(self) -> list[Coin]:
        return [] if self.to_act is None else [Coin(0), Coin(1)]

    def apply(self, action: Coin) -> list[Event]:
        if self.to_act is None or action not in self.legal():
            raise IllegalAction("pennies: not now")
        if self.to_act == 0:
            self.laid, self.to_act = action.side, 1
        else:
            self.guess, self.to_act = action.side, None
        return [{"kind": "coin", "seat": 1 - (self.to_act or 0)}]

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"laid": self.laid if seat == 0 else None, "guess": self.guess}

    def scores(self) -> tuple[float, ...]:
        if self.guess is None:
            return (0.0, 0.0)
        return (0.0, 1.0) if self.guess == self.laid else (1.0, 0.0)

    def determinize(self, seat: int, rng: Rng) -> PenniesState:
        s = self.copy()
        if seat == 1 and self.laid is not None:
            s.laid = rng.randrange(2)
        s.rng = rng.spawn()
        return s


class Pennies(Game[PenniesOptions, PenniesState]):
    id = "pennies"
    title = "Pennies"
    seats = range(2, 3)
    kind = GameKind(
        hidden_information=True, chance=False, public_actions=False, max_decisions=4, secret_choices=True
    )
    Options = PenniesOptions

    def new(self, seats: int, seed: int, options: PenniesOptions | None = None) -> PenniesState:
        s = PenniesState.__new__(PenniesState)
        s.start(self, seats, Rng(seed))
        s.laid = s.guess = None
        s.to_act = 0
        return s


def _root_values(secret: bool) -> list[float]:
    game = Pennies()
    register_bots(game, GameBots(secret=(lambda a: True) if secret else None))
    out = IsmctsAgent(game).analyse(game.new(2, 0), 0, Rng(3), Budget(iterations=2000))
    return [v for _, _, v in out]


def test_secret_choices_do_not_leak_to_the_next_seat() -> None:
    leaky = _root_values(secret=False)
    assert max(leaky) < 0.2, leaky  # the plain tree lets seat 1 see the coin
    sound = _root_values(secret=True)
    assert all(0.35 < v < 0.65 for v in sound), sound


# Pennies, then an echo: after the coin and the guess (revealed together), seat 0 lays a second
# coin in the open and wins if it matches seat 1's guess. Seat 0 sees the guess by then, so it
# always wins: a search must let that decision depend on the revealed answer (Revir's next
# round after both bids are shown), not share it across the answers it could not see before.


@state
class EchoState(PenniesState):
    echo: int | None

    def apply(self, action: Coin) -> list[Event]:
        if self.to_act is None or action not in self.legal():
            raise IllegalAction("echo: not now")
        seat = self.to_act
        if seat == 0 and self.laid is None:
            self.laid, self.to_act = action.side, 1
        elif seat == 1:
            self.guess, self.to_act = action.side, 0
        else:
            self.echo, self.to_act = action.side, None
        return [{"kind": "coin", "seat": seat}]

    def scores(self) -> tuple[float, ...]:
        if self.echo is None:
            return (0.0, 0.0)
        return (1.0, 0.0) if self.echo == self.guess else (0.0, 1.0)


class Echo(Pennies):
    id = "pennies-echo"
    title = "Pennies echo"
    kind = GameKind(
        hidden_information=True, chance=False, public_actions=False, max_decisions=6, secret_choices=True
    )

    def new(self, seats: int, seed: int, options: PenniesOptions | None = None) -> EchoState:  # type: ignore[override]
        s = EchoState.__new__(EchoState)
        s.start(self, seats, Rng(seed))
        s.laid = s.guess = s.echo = None
        s.to_act = 0
        return s


def _echo_root(answer_reveals: bool) -> tuple[list[float], IsmctsAgent]:
    game = Echo()
    register_bots(game, GameBots(secret=lambda a: True, answer_reveals=answer_reveals))
    agent = IsmctsAgent(game)
    out = agent.analyse(game.new(2, 0), 0, Rng(3), Budget(iterations=2000))
    return [v for _, _, v in out], agent


def test_a_revealed_answer_is_seen_by_the_next_decision() -> None:
    chained, _ = _echo_root(answer_reveals=False)
    assert all(v < 0.7 for v in chained), chained  # the echo cannot see the guess
    values, agent = _echo_root(answer_reveals=True)
    assert all(v > 0.85 for v in values), values  # the echo copies the guess it saw
    root = agent._root
    assert root is not None
    assert not root.shared[1].shared  # no statistics shared across the revealed answers


# Deferred decisions (``GameBots.defer``): the search plays the best bot's move unsearched.


class DeferToy(type(TOY)):  # type: ignore[misc]
    id = "toy-defer"


def _defer_agent(defer: bool) -> IsmctsAgent:
    game = DeferToy()
    # defer the first trick's lead (three cards in hand): the kit's best bot leads its lowest
    rule = (lambda s, seat: len(s.legal()) == 3) if defer else None
    register_bots(game, GameBots(agents={"lowest": LowestAgent}, best="lowest", defer=rule))
    return IsmctsAgent(game)


def test_a_deferred_decision_plays_the_best_bots_move_without_searching() -> None:
    s = TOY.new(2, seed=4)
    assert [str(a) for a in s.legal()] == ["play 3", "play 4", "play 6"]
    agent = _defer_agent(defer=True)
    assert str(agent.act(s, 0, Rng(1), Budget(iterations=200))) == "play 3"
    assert agent.last_iterations == 0
    plain = _defer_agent(defer=False)
    plain.act(s, 0, Rng(1), Budget(iterations=200))
    assert plain.last_iterations == 200


def test_a_decision_the_game_does_not_defer_is_searched() -> None:
    s = TOY.new(2, seed=4)
    s.play(s.legal()[2])
    s.play(s.legal()[0])  # seat 1's first card: the trick is over, two cards each
    seat = s.to_act
    assert seat is not None and len(s.legal()) == 2
    agent = _defer_agent(defer=True)
    agent.act(s, seat, Rng(1), Budget(iterations=200))
    assert agent.last_iterations == 200
