"""Fuldrigger actions: one frozen dataclass per kind of decision.

The canonical text is the verb and the arguments, ids as in the view (``sail s1 KAN1``,
``attack 1 AZOR``, ``accept o3``); :meth:`FuldriggerAction.to_json` gives ``kind`` (the verb),
``text`` and one key per field, named as the field. Both are derived from the fields; only the
offer answers (``accept`` / ``decline`` / ``withdraw``), whose offer is an int written ``oN``,
say more. Labels are the words the web client and the terminal show.

=================  ==========================  ==========================================
text               class                       decision
=================  ==========================  ==========================================
``home LON``       :class:`Home`               choose a home city (set-up, rule 2.3)
``chart A``        :class:`Chart`              learn a reef (chance card C28)
``sail s1 KAN1``   :class:`Sail`               start a ship's move, or its next step (4);
                                               an attacker's step towards the target (9.2)
``stop``           :class:`Stop`               end the move here
``buy s1 Ma``      :class:`Buy`                buy a load (6.2)
``sell s1``        :class:`Sell`               sell the load (6.3)
``jettison s1``    :class:`Jettison`           throw the load overboard (6.4)
``buyship``        :class:`BuyShip`            buy a ship in the home city (7.1)
``sellship s1``    :class:`SellShip`           sell a ship to the bank (7.2)
``fortress CAN``   :class:`Fortress`           build a fortress (8.1)
``fit s1``         :class:`Fit`                hoist a privateer sail (9.1)
``unfit s1``       :class:`Unfit`              turn a privateer back into a merchant (9.1)
``attack 1 AZOR``  :class:`Attack`             declare an attack (9.2)
``join s1``        :class:`Join`               nominate a privateer for the attack
``launch``         :class:`Launch`             start the approach (each nominated privateer
                                               sails in by ``sail`` steps), then the roll
``lose s1``        :class:`Lose`               give up a privateer after a lost attack
``seize s7``       :class:`Seize`              take a ship, or ``seize fort``
``offer 1``        :class:`MakeOffer`          open a draft offer to a seat (11)
``give cash 50``   :class:`Give`               a clause: add 50 to the cash given; ``fort CAN``,
                                               ``ship s3``, ``load ALX:Ka`` (a depot load)
``ask ship s7``    :class:`Ask`                a clause: ask for cash, a fortress, a ship, a load
``truce 3``        :class:`Truce`              a clause: a truce of N rounds (11.6)
``send``           :class:`Send`               send the draft
``cancel``         :class:`Cancel`             tear up the draft
``accept o1``      :class:`Accept`             accept an offer (11.4)
``counter o1``     :class:`Counter`            decline an offer and draft one back (11.2)
``decline o1``     :class:`Decline`            decline an offer
``withdraw o1``    :class:`Withdraw`           withdraw one's own offer
``later``          :class:`Later`              leave an offer just received open
``pass``           :class:`Pass`               close one's negotiation window (11.3)
``portage s1``     :class:`Portage`            send the load across the isthmus (12)
``collect s1 Ka``  :class:`Collect`            load from the depot (12)
``end``            :class:`End`                end the turn
=================  ==========================  ==========================================
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from spillebord.core import Action

from . import data as D


@dataclass(frozen=True, slots=True)
class FuldriggerAction(Action):
    """Base of every Fuldrigger decision (see the module docstring for the texts)."""

    verb: ClassVar[str] = ""
    arg_names: ClassVar[tuple[str, ...]] = ()
    """The dataclass fields, in order: the words after the verb and the keys of the JSON."""
    int_fields: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls) -> None:
        # The field names come from the annotations (the class variables declared here are
        # not fields). No zero-argument super() here: @dataclass(slots=True) rebuilds the
        # class, and object.__init_subclass__ has nothing to do.
        own = inspect.get_annotations(cls)
        ann = {k: v for k, v in own.items() if "ClassVar" not in str(v)}
        if ann:
            cls.arg_names = tuple(ann)
            cls.int_fields = frozenset(k for k, v in ann.items() if v in ("int", int))

    def words(self) -> tuple[str, ...]:
        """The arguments as written in the text."""
        return tuple([str(getattr(self, f)) for f in self.arg_names])

    def __str__(self) -> str:
        return " ".join((self.verb, *self.words()))

    def to_json(self) -> dict[str, Any]:
        j: dict[str, Any] = {"kind": self.verb, "text": str(self)}
        for f in self.arg_names:
            j[f] = getattr(self, f)
        return j

    @classmethod
    def from_words(cls, words: list[str]) -> FuldriggerAction:
        """The action with these argument words; ``ValueError`` when one is malformed."""
        args = [int(w) if f in cls.int_fields else w for f, w in zip(cls.arg_names, words, strict=True)]
        return cls(*args)


def _hazard_note(code: str) -> str:
    i = D.INDEX.get(code)
    if i is None:
        return ""
    h = D.HAZARD_LIST[i]
    if h is None:
        return " (port)" if D.IS_PORT[i] else ""
    name = D.HAZARD_NAMES_DA[h]
    return f" ({name} {D.REEF_LETTER[i]})" if h == D.REEF else f" ({name})"


# ------------------------------------------------------------------ set-up and chance


@dataclass(frozen=True, slots=True)
class Home(FuldriggerAction):
    verb = "home"
    city: str

    def label(self) -> str:
        return f"Choose {D.PORTS[self.city].name} as home city"


@dataclass(frozen=True, slots=True)
class Chart(FuldriggerAction):
    verb = "chart"
    reef: str

    def label(self) -> str:
        return f"Learn reef {self.reef}"


# ------------------------------------------------------------------ sailing


@dataclass(frozen=True, slots=True)
class Sail(FuldriggerAction):
    verb = "sail"
    ship: str
    to: str

    def label(self) -> str:
        return f"Sail {self.ship} to {self.to}" + _hazard_note(self.to)


@dataclass(frozen=True, slots=True)
class Stop(FuldriggerAction):
    verb = "stop"

    def label(self) -> str:
        return "Stop this ship here"


# ------------------------------------------------------------------ trade, ships, fortresses


@dataclass(frozen=True, slots=True)
class Buy(FuldriggerAction):
    verb = "buy"
    ship: str
    good: str

    def label(self) -> str:
        return f"Buy {D.GOODS[self.good].name_en.lower()} ({self.good}) onto {self.ship}"


@dataclass(frozen=True, slots=True)
class Sell(FuldriggerAction):
    verb = "sell"
    ship: str

    def label(self) -> str:
        return f"Sell the cargo of {self.ship}"


@dataclass(frozen=True, slots=True)
class Jettison(FuldriggerAction):
    verb = "jettison"
    ship: str

    def label(self) -> str:
        return f"Throw {self.ship}'s cargo overboard"


@dataclass(frozen=True, slots=True)
class BuyShip(FuldriggerAction):
    verb = "buyship"

    def label(self) -> str:
        return "Buy a ship in the home city"


@dataclass(frozen=True, slots=True)
class SellShip(FuldriggerAction):
    verb = "sellship"
    ship: str

    def label(self) -> str:
        return f"Sell ship {self.ship} to the bank"


@dataclass(frozen=True, slots=True)
class Fortress(FuldriggerAction):
    verb = "fortress"
    city: str

    def label(self) -> str:
        return f"Build a fortress in {D.PORTS[self.city].name}"


@dataclass(frozen=True, slots=True)
class Fit(FuldriggerAction):
    verb = "fit"
    ship: str

    def label(self) -> str:
        return f"Fit out {self.ship} as a privateer"


@dataclass(frozen=True, slots=True)
class Unfit(FuldriggerAction):
    verb = "unfit"
    ship: str

    def label(self) -> str:
        return f"Turn privateer {self.ship} back into a merchant"


@dataclass(frozen=True, slots=True)
class Portage(FuldriggerAction):
    verb = "portage"
    ship: str

    def label(self) -> str:
        return f"Send {self.ship}'s cargo across the isthmus"


@dataclass(frozen=True, slots=True)
class Collect(FuldriggerAction):
    verb = "collect"
    ship: str
    good: str

    def label(self) -> str:
        return f"Load {self.good} from the depot onto {self.ship}"


@dataclass(frozen=True, slots=True)
class End(FuldriggerAction):
    verb = "end"

    def label(self) -> str:
        return "End the turn"


# ------------------------------------------------------------------ attacks


@dataclass(frozen=True, slots=True)
class Attack(FuldriggerAction):
    verb = "attack"
    defender: int
    square: str

    def label(self) -> str:
        return f"Attack seat {self.defender} at {self.square}"


@dataclass(frozen=True, slots=True)
class Join(FuldriggerAction):
    verb = "join"
    ship: str

    def label(self) -> str:
        return f"Send privateer {self.ship} into the attack"


@dataclass(frozen=True, slots=True)
class Launch(FuldriggerAction):
    verb = "launch"

    def label(self) -> str:
        return "Launch the attack: sail the privateers in, then roll"


@dataclass(frozen=True, slots=True)
class Lose(FuldriggerAction):
    verb = "lose"
    ship: str

    def label(self) -> str:
        return f"Give up privateer {self.ship}"


@dataclass(frozen=True, slots=True)
class Seize(FuldriggerAction):
    """Take a defending unit: a ship id, or ``fort``."""

    verb = "seize"
    unit: str

    def label(self) -> str:
        return "Take the fortress" if self.unit == "fort" else f"Take ship {self.unit}"


# ------------------------------------------------------------------ negotiation


@dataclass(frozen=True, slots=True)
class MakeOffer(FuldriggerAction):
    verb = "offer"
    to: int

    def label(self) -> str:
        return f"Draft an offer to seat {self.to}"


def _clause(what: str, value: str) -> str:
    if what == "cash":
        return f"{value} ducats"
    if what == "fort":
        return f"the {D.PORTS[value].name} fortress" if value in D.PORTS else f"fortress {value}"
    if what == "load":
        port, _, good = value.partition(":")
        return f"a {good} load in the {port} depot"
    return f"ship {value}"


@dataclass(frozen=True, slots=True)
class Give(FuldriggerAction):
    """A clause of the draft: what the proposer gives (``cash 50`` adds 50 ducats to the sum,
    ``fort CAN``, ``ship s3``, ``load ALX:Ka``: one Ka load from his depot in Alexandria)."""

    verb = "give"
    what: str
    value: str

    def label(self) -> str:
        if self.what == "cash":
            return f"Add {self.value} to the ducats you give"
        return f"Offer to give {_clause(self.what, self.value)}"


@dataclass(frozen=True, slots=True)
class Ask(FuldriggerAction):
    """A clause of the draft: what the recipient gives (``cash N`` adds N to the sum asked)."""

    verb = "ask"
    what: str
    value: str

    def label(self) -> str:
        if self.what == "cash":
            return f"Add {self.value} to the ducats you ask for"
        return f"Ask for {_clause(self.what, self.value)}"


@dataclass(frozen=True, slots=True)
class Truce(FuldriggerAction):
    verb = "truce"
    rounds: int

    def label(self) -> str:
        return f"Truce for {self.rounds} rounds"


@dataclass(frozen=True, slots=True)
class Send(FuldriggerAction):
    verb = "send"

    def label(self) -> str:
        return "Send the offer"


@dataclass(frozen=True, slots=True)
class Cancel(FuldriggerAction):
    verb = "cancel"

    def label(self) -> str:
        return "Tear up the draft"


@dataclass(frozen=True, slots=True)
class OfferAnswer(FuldriggerAction):
    """Base of the answers naming an open offer by its number (written ``oN``)."""

    offer: int

    def words(self) -> tuple[str, ...]:
        return (f"o{self.offer}",)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.verb, "text": str(self), "offer": f"o{self.offer}"}

    @classmethod
    def from_words(cls, words: list[str]) -> FuldriggerAction:
        (w,) = words
        if w[:1] != "o" or not w[1:].isdigit():
            raise ValueError(f"{w!r} is not an offer id (write e.g. o3)")
        return cls(int(w[1:]))


@dataclass(frozen=True, slots=True)
class Accept(OfferAnswer):
    verb = "accept"

    def label(self) -> str:
        return f"Accept offer o{self.offer}"


@dataclass(frozen=True, slots=True)
class Decline(OfferAnswer):
    verb = "decline"

    def label(self) -> str:
        return f"Decline offer o{self.offer}"


@dataclass(frozen=True, slots=True)
class Withdraw(OfferAnswer):
    verb = "withdraw"

    def label(self) -> str:
        return f"Withdraw offer o{self.offer}"


@dataclass(frozen=True, slots=True)
class Counter(OfferAnswer):
    """Decline an offer just received and draft one back to its proposer (a counter-offer)."""

    verb = "counter"

    def label(self) -> str:
        return f"Decline offer o{self.offer} and draft a counter-offer"


@dataclass(frozen=True, slots=True)
class Pass(FuldriggerAction):
    """Close one's negotiation window: no (more) offers now."""

    verb = "pass"

    def label(self) -> str:
        return "No offers now (pass)"


@dataclass(frozen=True, slots=True)
class Later(FuldriggerAction):
    verb = "later"

    def label(self) -> str:
        return "Leave the offer open"


# ------------------------------------------------------------------ lookups

ACTION_CLASSES: tuple[type[FuldriggerAction], ...] = (
    Home, Sail, Stop, Buy, Sell, Jettison, BuyShip, SellShip, Fortress, Fit, Unfit, Attack, Join,
    Launch, Lose, Seize, MakeOffer, Give, Ask, Truce, Send, Cancel, Accept, Decline, Withdraw, Later,
    Counter, Pass, Chart, Portage, Collect, End,
)  # fmt: skip
BY_VERB: dict[str, type[FuldriggerAction]] = {c.verb: c for c in ACTION_CLASSES}
"""Verb → action class (notation)."""

Order = FuldriggerAction
"""The former name of the action type (every action is a :class:`FuldriggerAction`)."""

A = TypeVar("A", bound=FuldriggerAction)
_CACHE: dict[tuple[Any, ...], Any] = {}


def act(cls: type[A], *args: Any) -> A:
    """The one instance of ``cls(*args)``: actions are values, and reusing them saves the
    allocations of the legal lists."""
    key = (cls, *args)
    a: A | None = _CACHE.get(key)
    if a is None:
        a = _CACHE[key] = cls(*args)
    return a


_SAIL_STEPS: dict[tuple[str, int], tuple[tuple[int, Sail], ...]] = {}


def sail_steps(ship: str, node: int) -> tuple[tuple[int, Sail], ...]:
    """``(next node, sail ship there)`` for every neighbour of ``node``, in map order (built
    once per ship and node)."""
    key = (ship, node)
    steps = _SAIL_STEPS.get(key)
    if steps is None:
        steps = _SAIL_STEPS[key] = tuple((v, act(Sail, ship, D.CODES[v])) for v in D.ADJ[node])
    return steps


class ShipActions:
    """The actions naming one ship, made once per ship id (the legal lists reuse them)."""

    __slots__ = ("ask", "buy", "fit", "give", "jettison", "sell", "sellship", "unfit")

    def __init__(self, ship: str) -> None:
        self.buy: dict[str, Buy] = {g: act(Buy, ship, g) for g in D.GOODS}
        self.sell = act(Sell, ship)
        self.jettison = act(Jettison, ship)
        self.sellship = act(SellShip, ship)
        self.fit = act(Fit, ship)
        self.unfit = act(Unfit, ship)
        self.give = act(Give, "ship", ship)
        self.ask = act(Ask, "ship", ship)


class _ShipActionTable(dict[str, ShipActions]):
    def __missing__(self, ship: str) -> ShipActions:
        sa = self[ship] = ShipActions(ship)
        return sa


SHIP_ACTIONS: dict[str, ShipActions] = _ShipActionTable()
"""Ship id -> its :class:`ShipActions` (made on first use)."""


_SAIL_ACTIONS: dict[tuple[str, int], tuple[Sail, ...]] = {}


def sail_actions(ship: str, node: int) -> tuple[Sail, ...]:
    """The actions of :func:`sail_steps`, without the nodes."""
    key = (ship, node)
    acts = _SAIL_ACTIONS.get(key)
    if acts is None:
        acts = _SAIL_ACTIONS[key] = tuple([a for _, a in sail_steps(ship, node)])
    return acts


TRUCES: tuple[Truce, ...] = tuple(Truce(n) for n in range(1, 11))
"""The truce clauses, 1–10 rounds (rule 11.1)."""

END = End()
STOP = Stop()
LAUNCH = Launch()
LATER = Later()
PASS = Pass()
SEND = Send()
CANCEL = Cancel()
BUYSHIP = BuyShip()
