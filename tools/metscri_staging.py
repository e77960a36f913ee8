"""A probe of a Metscri search that asks "this phase's action, or end the phase?", against the gatherer.

    python tools/metscri_staging.py --seeds 1 20 --iterations 25 --claims off   (session 21's run)

Metscri's own search (``games/metscri/search.py``), here on the gatherer:

* it searches only in the Enter, Turn, Spy and Collect phases, and only where the gatherer
  would do that phase's action and could end the phase instead (enter a card or not, turn or
  not, reveal after a spy or not, collect or not: whether to take the points now or keep the
  cards private for a later, bigger group);
* its candidates are the gatherer's action and ending the phase (``--width 3`` adds the best
  other action by one ply of the evaluation);
* every candidate is played out on the same determinizations with the same random stream by
  the gatherer for both seats **to the end of the searching seat's next turn**, so that every
  candidate is valued at the same point of the turn cycle after the opponent's reply, with
  the relative value (``bots.relative_value``);
* it plays the gatherer's action unless another is ahead by 2.0 standard errors of the paired
  differences (``search.switch_to``). Rolls and every other decision are the gatherer's.

Each seed is one deal played twice, the seats swapped; the search decides from
``state.determinize(seat)`` only. Printed: a line per game (its score, the M-points, CPU
seconds, decisions searched and switched so far), then the score with its 95% Wilson interval
and the interval read deal by deal (``arena.stats.deal_interval``).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any, cast

from spillebord.ai import Budget
from spillebord.core import Action, AnyGame, Rng, State, registry
from spillebord.games.metscri import bots as MB
from spillebord.games.metscri.actions import EndPhase, MetscriAction
from spillebord.games.metscri.data import COLLECT, ENTER, SPY, TURN
from spillebord.games.metscri.rules import MetscriState
from spillebord.games.metscri.search import MetscriSearchAgent

CAP = 400
"""Most decisions a playout plays (a turn cycle takes 20-40)."""
SEARCHED_PHASES = (ENTER, TURN, SPY, COLLECT)


class StagingSearch(MetscriSearchAgent):
    """The probe's search (see the module docstring)."""

    def __init__(self, game: AnyGame, width: int) -> None:
        self.gatherer = MB.GathererAgent(game)
        super().__init__(game, self.gatherer, MB.prior, MB.defer, MB.searchable, MB.relative_value)
        self.width = width
        self.searched = self.switched = 0

    def act(self, state: State[Any], seat: int, rng: Rng, budget: Budget | None = None) -> Action:
        assert isinstance(state, MetscriState)
        legal = state.legal()
        if len(legal) == 1:
            return legal[0]
        if state.phase not in SEARCHED_PHASES:
            return self.gatherer.act(state, seat, rng, budget)
        first = self.gatherer.act(state, seat, rng.spawn(), budget)
        if isinstance(first, EndPhase) or not any(isinstance(a, EndPhase) for a in legal):
            return first
        out = self._rank(state, seat, rng, budget)[0][0]
        self.searched += 1
        self.switched += out != first
        return out

    def candidates(
        self, state: MetscriState, seat: int, rng: Rng, width: int, budget: Budget | None = None
    ) -> tuple[list[Action], list[Action]]:
        legal: list[Action] = list(state.legal())
        first = self.gatherer.act(state, seat, rng, budget)
        base = self.rank(state, legal)
        ordered = [legal[i] for i in sorted(range(len(legal)), key=lambda i: (-base[i], str(legal[i])))]
        end = [a for a in legal if isinstance(a, EndPhase)][:1]
        others = [
            a for a in ordered if a != first and not isinstance(a, EndPhase) and MB.searchable(state, seat, a)
        ]
        return [first, *end, *others[: max(0, self.width - 2)]], ordered

    def playout(self, d: MetscriState, person: int, action: Action, rng: Rng) -> float:
        s = d.copy()
        s.play(cast(MetscriAction, action))
        stage = 0  # 0: the rest of this turn, 1: the others' turns, 2: the seat's next turn
        for _ in range(CAP):
            seat = s.to_act
            if seat is None:
                break
            if stage == 0 and seat != person:
                stage = 1
            elif stage == 1 and seat == person:
                stage = 2
            elif stage == 2 and seat != person:
                break
            legal = s.legal()
            s.play(legal[0] if len(legal) == 1 else cast(MetscriAction, self.gatherer.act(s, seat, rng)))
        out = s.outcome()
        if out is not None:
            return float(out[person])
        return float(self.value(s)[person])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--seeds", type=int, nargs=2, default=(1, 20), metavar=("FIRST", "LAST"))
    p.add_argument("--iterations", type=int, default=25, help="playouts a decision (the Expert's)")
    p.add_argument("--width", type=int, default=2, choices=(2, 3), help="candidates (default 2)")
    p.add_argument(
        "--claims",
        choices=("on", "off"),
        default="on",
        help="bots.PLAN_CLAIMS for both bots (session 21's run: off, the evaluation before it)",
    )
    a = p.parse_args(argv)
    if a.seeds[0] > a.seeds[1] or a.iterations < 2:
        p.error("--seeds FIRST <= LAST, --iterations at least 2")
    from spillebord.arena.stats import deal_interval, wilson

    MB.PLAN_CLAIMS = a.claims == "on"
    game = registry.get("metscri")
    total = 0.0
    deals: list[float] = []
    for seed in range(a.seeds[0], a.seeds[1] + 1):
        deal = 0.0
        for seat_a in (0, 1):
            search = StagingSearch(game, a.width)
            agents: list[Any] = [search, MB.GathererAgent(game)]
            if seat_a:
                agents.reverse()
            s: Any = game.new(2, seed)
            rng = Rng(seed * 7 + seat_a)
            start = time.process_time()
            n = 0
            while s.to_act is not None and n < 6000:
                seat = s.to_act
                legal = s.legal()
                if len(legal) == 1:
                    s.play(legal[0])
                else:
                    view = s.determinize(seat, rng) if agents[seat] is search else s
                    s.play(agents[seat].act(view, seat, rng, Budget(iterations=a.iterations)))
                n += 1
            res = s.outcome()
            score = 0.5 if res is None else float(res[seat_a])
            total += score
            deal += score / 2
            print(
                f"seed {seed} seat {seat_a} score {score} points {s.points[seat_a]}-{s.points[1 - seat_a]} "
                f"cpu {time.process_time() - start:.0f}s "
                f"searched {search.searched} switched {search.switched}",
                flush=True,
            )
        deals.append(deal)
    games = 2 * len(deals)
    lo, hi = wilson(total / games, games)
    read = deal_interval(deals)
    by = f"{read[0]:.3f}-{read[1]:.3f}" if read is not None else "too few deals"
    print(f"the search: {total:g} of {games} games, {total / games:.3f} ({lo:.3f}-{hi:.3f}); by deals {by}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
