"""Touché bots: the heuristic bot against random play; evaluate(); the terminal picture."""

from __future__ import annotations

import pytest
from rich.console import Console

from spillebord.ai import Budget, Needs, best_agent, bots_for, make_agent
from spillebord.ai.registry import decide
from spillebord.core import Action, Rng
from spillebord.games.touche import GAME
from spillebord.games.touche.actions import Place
from spillebord.games.touche.bots import (
    LIKELY,
    SURE,
    VALUE_BY_MISSING,
    HeuristicAgent,
    _cell_delta,
    evaluate,
    hot_bits,
)
from spillebord.games.touche.data import CELL_CARD, CELLS, EMPTY, INSTANCES, IS_FREE, JOKER, THROUGH
from spillebord.games.touche.position import position
from spillebord.games.touche.render import render
from spillebord.games.touche.rollsearch import RolloutSearchAgent
from spillebord.games.touche.rules import ToucheState
from spillebord.testing import play_match, random_walk


def wins_of(a: str, b: str, games: int, grade: int) -> int:
    """Games agent ``a`` wins against ``b`` (one game a match; a plays seat 0 in even games,
    seat 1 in odd ones)."""
    options = {"grade": grade, "match_games": 1, "match_max_games": 1}
    wins = 0
    for g in range(games):
        players = [a, b] if g % 2 == 0 else [b, a]
        m = play_match(GAME, players, 1000 + g, options, agent_seed=g)
        wins += m.outcome[g % 2] == 1.0
    return wins


def test_heuristic_bot_beats_random_in_80_percent_of_200_games_at_grade_2() -> None:
    wins = wins_of("heuristic", "random", 200, 2)
    assert wins >= 160, wins


def test_heuristic_bot_beats_random_at_other_grades() -> None:
    for grade in (1, 3, 4, 5):
        wins = wins_of("heuristic", "random", 12, grade)
        assert wins >= 10, (grade, wins)


def test_greedy_with_evaluate_beats_random() -> None:
    wins = wins_of("greedy", "random", 10, 2)
    assert wins >= 8


def test_best_bot_is_registered() -> None:
    assert best_agent(GAME) == "heuristic" and bots_for(GAME).evaluate is evaluate
    assert make_agent("best", GAME).name == "heuristic"
    # it reads only the board, its own hand and legal(): no determinization needed
    assert HeuristicAgent.needs == Needs(determinization=False)


def test_heuristic_completes_and_blocks() -> None:
    agent = make_agent("heuristic", GAME)
    # completes a square when it can
    s = position(grade=1, marks={"r3c0": 0, "r3c1": 0, "r4c0": 0}, hands={0: ["7D", "AS", "KH", "3S", "JK"]})
    assert str(agent.act(s, 0, Rng(1))) == "place 7D r4c1"
    # blocks an opponent's four-of-five line
    s = position(
        grade=2,
        marks={"r3c0": 1, "r3c1": 1, "r3c2": 1, "r3c3": 1},
        hands={0: ["4S", "AH", "KH", "2H", "3H"]},
    )
    assert str(agent.act(s, 0, Rng(1))) == "place 4S r3c4"


def test_evaluate_prefers_own_progress() -> None:
    a = position(grade=1, marks={"r3c0": 0, "r3c1": 0, "r4c0": 0})
    b = position(grade=1, marks={"r3c0": 1, "r3c1": 1, "r4c0": 1})
    assert evaluate(a, 0) > evaluate(b, 0)
    assert evaluate(b, 1) > evaluate(b, 0)


def test_render_draws_markers_crowns_and_free_spaces() -> None:
    s = position(
        grade=1,
        crowned=[(0, ["r4c10", "r4c11", "r5c10", "r5c11"])],
        marks={"r3c0": 1},
        hands={0: ["7D", "AS", "KH", "3S", "JK"]},
    )
    console = Console(width=120, record=True, color_system=None)
    console.print(render(s.view(0), 0))
    text = console.export_text()
    assert "P♛FR" in text and "b 2♦" in text and "FR" in text
    assert "[JK]" in text and "Grade 1" in text
    console.print(render(s.view(None), None))


def test_render_every_phase_of_a_random_game() -> None:
    console = Console(width=120, record=True, color_system=None)
    phases = set()
    options = {"grade": 0, "match_games": 1, "match_max_games": 1, "max_turns": 24}
    for s in random_walk(GAME, 3, 2, options):
        phases.add(s.view(None)["phase"])
        console.print(render(s.view(s.to_act), s.to_act))
    assert {"grade", "play", "over"} <= phases


# The heuristic's cell value as it was first written (two calls of _worth an instance): the
# fast _cell_delta must give exactly the same numbers.
def _ref_worth(marks: list[int], cells: tuple[int, ...], side: int, held: set[str] | None) -> float:
    miss = 0
    frees = 0
    last = -1
    for c in cells:
        m = marks[c]
        if m == side:
            continue
        if m != EMPTY:
            return -1.0
        if IS_FREE[c]:
            frees += 1
            if frees > 1:
                return -1.0
        miss += 1
        last = c
    if miss == 1:
        if IS_FREE[last]:
            return SURE
        if held is not None and CELL_CARD[last] in held:
            return LIKELY
    return VALUE_BY_MISSING[miss]


def _ref_cell_delta(state: ToucheState, x: int, side: int, hand: tuple[str, ...]) -> float:
    defense, ready_w = 1.1, 0.25
    marks = state.marks
    old = marks[x]
    gain = 0.0
    held = set(hand)
    held.discard(JOKER)
    mask = state.mask(side)
    for t in range(4):
        if not mask >> t & 1:
            continue
        for k in THROUGH[t][x]:
            cells = INSTANCES[k][1]
            before = _ref_worth(marks, cells, side, held)
            marks[x] = side
            after = _ref_worth(marks, cells, side, held)
            marks[x] = old
            if after < 0:
                continue
            ready = 0
            for c in cells:
                if marks[c] == EMPTY and c != x and (IS_FREE[c] or CELL_CARD[c] in held):
                    ready += 1
            gain += (after - max(before, 0.0)) * (1.0 + ready_w * ready)
    for opp in range(state.n_sides):
        if opp == side:
            continue
        omask = state.mask(opp)
        for t in range(4):
            if not omask >> t & 1:
                continue
            for k in THROUGH[t][x]:
                before = _ref_worth(marks, INSTANCES[k][1], opp, None)
                if before > 0:
                    gain += defense * before
    return gain


def test_fast_cell_delta_equals_the_reference_exactly() -> None:
    """Every cell (empty, own, foreign, FREE), both or all three sides, every grade, in
    positions of the heuristic's own games (dense near-patterns) and of random ones."""
    agent = HeuristicAgent(GAME)
    checked = 0
    for seed in range(10):
        seats = 3 if seed % 4 == 3 else 2
        state = GAME.new(seats, seed, GAME.Options(grade=1 + seed % 5))  # type: ignore[call-arg]
        rng = Rng(seed)
        n = 0
        while state.to_act is not None and n < 160:
            if state.phase == "play" and n % 7 == 0:
                seat = state.to_act
                for side in range(state.n_sides):
                    hand = state.hands[seat]
                    hot = hot_bits(hand)
                    for x in CELLS:
                        fast = _cell_delta(state, x, side, hand, hot=hot)
                        assert fast == _ref_cell_delta(state, x, side, hand)
                        checked += 1
            legal = state.legal()
            state.play(rng.choice(legal) if n % 5 == 4 else agent.act(state, state.to_act, rng))
            n += 1
    assert checked > 10_000


def test_the_heuristic_memo_gives_the_values_it_would_compute() -> None:
    """The heuristic keeps :func:`_cell_delta` by what it reads (two sides). In the Master's
    playouts (four decisions of the search, as in ``benchmarks/search_decisions.py``) every
    ``scores`` call of the heuristic, which keeps its memo across them, agrees exactly with a
    new heuristic's (which computes every value); and the memo answers most calls. The search's
    heuristic is wrapped rather than its class patched: under ``tools/compile.py`` the class is
    native and its ``act`` calls the compiled ``scores``."""
    calls = [0, 0]

    class Checked:
        def __init__(self, real: HeuristicAgent) -> None:
            self.real = real

        def scores(self, state: ToucheState, seat: int) -> list[tuple[Action, float]]:
            memo = self.real._memo
            before = len(memo)
            got = self.real.scores(state, seat)
            assert got == HeuristicAgent(GAME).scores(state, seat)
            cells = {a.cell for a, _ in got if isinstance(a, Place)}
            calls[0] += len(cells)
            calls[1] += len(cells) - max(0, len(memo) - before)
            return got

        def act(self, state: ToucheState, seat: int, rng: Rng, budget: Budget | None = None) -> Action:
            if state.phase == "play" and len(state.legal()) > 1:
                self.scores(state, seat)  # the memo's values first; act then finds them in it
            return self.real.act(state, seat, rng, budget)

    club, search = make_agent("heuristic", GAME), make_agent("ismcts", GAME)
    assert isinstance(search, RolloutSearchAgent) and isinstance(search.heuristic, HeuristicAgent)
    search.heuristic = Checked(search.heuristic)
    for seed, n in ((7, 20), (3, 60), (11, 120), (5, 90)):
        state = GAME.new(2, seed, GAME.Options())
        rng = Rng(seed)
        for _ in range(n):
            state.play(decide(club, state, rng))  # type: ignore[arg-type]
        assert state.to_act is not None
        decide(search, state, Rng(1), Budget(iterations=180))
    assert calls[0] > 20_000 and calls[1] > calls[0] // 2, calls


@pytest.mark.parametrize("grade", [1, 2, 3, 4, 5])
def test_the_heuristic_memo_agrees_at_every_grade_as_the_pattern_types_change(grade: int) -> None:
    """The memo's key reads the board near the cell only for the pattern types that count for
    either side now (``data.NEAR_BY_TYPES``): at every grade, in games where those types change as
    patterns are crowned (grade 5, where each type counts once), and with a fifth of the moves random, each
    of a memo-keeping heuristic's scores agrees exactly with a new heuristic's."""
    agent = HeuristicAgent(GAME)
    masks_seen = set()
    checked = 0
    for seed in range(3):
        state = GAME.new(2, 40 + seed, GAME.Options(grade=grade))  # type: ignore[call-arg]
        rng = Rng(seed)
        n = 0
        while state.to_act is not None and n < 400:
            seat = state.to_act
            if state.phase == "play":
                assert agent.scores(state, seat) == HeuristicAgent(GAME).scores(state, seat)
                masks_seen.add((state.mask(0), state.mask(1)))
                checked += 1
            legal = state.legal()
            state.play(rng.choice(legal) if n % 5 == 4 else agent.act(state, seat, rng))
            n += 1
    assert checked > 300
    if grade == 5:  # all four types count, each once: the masks shrink as types are crowned
        assert len(masks_seen) > 2 and (15, 15) in masks_seen, masks_seen
    else:  # one type at grades 1-4
        assert masks_seen == {(1 << (grade - 1),) * 2}, masks_seen


def test_the_heuristic_memo_starts_again_when_full(monkeypatch: pytest.MonkeyPatch) -> None:
    from spillebord.games.touche import bots

    monkeypatch.setattr(bots, "MEMO_SIZE", 50)
    agent = HeuristicAgent(GAME)
    state = GAME.new(2, 3, GAME.Options(grade=2))
    rng = Rng(3)
    most = 0
    while state.to_act is not None:
        if state.phase == "play":
            assert agent.scores(state, state.to_act) == HeuristicAgent(GAME).scores(state, state.to_act)
            most = max(most, len(agent._memo))
        state.play(agent.act(state, state.to_act, rng))  # type: ignore[arg-type]
    assert 50 <= most < 50 + 144
