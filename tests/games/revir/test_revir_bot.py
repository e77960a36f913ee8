"""The Revir heuristic bot: registered, sensible in set positions, and clearly better than random."""

from __future__ import annotations

from spillebord.ai import Needs, bots_for, evaluate, make_agent
from spillebord.core import Rng
from spillebord.games.revir import GAME, Bid, Fight, Hunt, Move, Stay, Surrender, build_position
from spillebord.games.revir.bots import HeuristicAgent, want_squares
from spillebord.games.revir.rules import RevirState
from spillebord.testing import play_match

P1, P2 = 0, 1


def test_bot_is_registered_as_best() -> None:
    assert bots_for(GAME).best == "heuristic"
    assert make_agent("best", GAME).name == "heuristic"
    assert isinstance(make_agent("heuristic", GAME), HeuristicAgent)
    assert HeuristicAgent.needs == Needs(determinization=True, budget=False)


def test_bot_hunts_when_allowed() -> None:
    bot = make_agent("heuristic", GAME)
    s = build_position(visible=("E05",), cats={P1: "RB", P2: "VB"}, owners={"RB": P1})
    s.play(Stay())
    assert bot.act(s, P1, Rng(1)) == Hunt("RB")


def test_bot_walks_to_a_hunt() -> None:
    bot = make_agent("heuristic", GAME)
    s = build_position(visible=("E05",), cats={P1: "GP", P2: "VB"}, owners={"RB": P1}, stones=(10, 30))
    assert bot.act(s, P1, Rng(1)) == Move("RB"), "fights against 30 stones are poor; the hunt is free"


def test_bot_takes_the_winning_fight() -> None:
    bot = make_agent("heuristic", GAME)
    s = build_position(cats={P1: "FR", P2: "GP"}, owners={"LO": P1, "HS": P1, "BA": P1, "FR": P2},
                       stones=(20, 2))  # fmt: skip
    s.play(Stay())
    assert bot.act(s, P1, Rng(1)) == Fight("FR")


def test_bot_bids_sensibly() -> None:
    bot = make_agent("heuristic", GAME)
    s = build_position(cats={P1: "LO", P2: "GP"}, owners={"LO": P2}, stones=(20, 2))
    s.play(Stay())
    s.play(Fight("LO"))
    assert bot.act(s, P1, Rng(1)) == Bid(3), "outbids the defender's whole reserve when it can every round"
    s = build_position(cats={P1: "LO", P2: "GP"}, owners={"LO": P2}, stones=(3, 9))
    s.play(Stay())
    s.play(Fight("LO"))
    assert bot.act(s, P1, Rng(1)) == Surrender(), "cannot land five hits with 3 stones"
    s = build_position(cats={P1: "LO", P2: "GP"}, owners={"LO": P2}, stones=(9, 0))
    s.play(Stay())
    s.play(Fight("LO"))
    s.play(Bid(1))
    assert bot.act(s, P2, Rng(1)) == Surrender(), "a certain loss: the owner stops the damage"


def test_evaluate_prefers_series_and_stones() -> None:
    a = build_position(owners={"LO": P1, "HS": P1, "BA": P1})
    b = build_position(owners={"LO": P1, "HS": P2, "BA": P2})
    assert evaluate(GAME, a, P1) > evaluate(GAME, b, P1)
    c = build_position(stones=(15, 10))
    d = build_position(stones=(5, 10))
    assert evaluate(GAME, c, P1) > evaluate(GAME, d, P1)


def test_evaluate_a_finished_game_by_its_outcome() -> None:
    won = build_position(cats={P1: "FR", P2: "GP"}, owners={"LO": P1, "HS": P1, "BA": P1, "FR": P2})
    won.play(Stay())
    won.play(Fight("FR"))
    won.play(Bid(0))
    won.play(Surrender())
    assert won.outcome() == (1.0, 0.0)
    assert evaluate(GAME, won, P1) == 1000.0 and evaluate(GAME, won, P2) == 0.0


def test_heuristic_beats_random_in_200_three_seat_games() -> None:
    # The outcome is normalized (a shared win is a share), so the sum of the heuristic seat's
    # outcomes is its share of the wins, as res[hs] / sum(res) was with the old (1, 1) ties.
    share = 0.0
    for g in range(200):
        hs = g % 3
        players = ["heuristic" if i == hs else "random" for i in range(3)]
        share += play_match(GAME, players, seed=g).outcome[hs]
    assert share / 200 >= 0.8


def _direct_counts(s: RevirState, seat: int) -> tuple[int, ...]:
    counts = [0] * len(s.geo.colour_ids)
    for i, o in enumerate(s.owner):
        if o == seat:
            counts[s.geo.t_colour[i]] += 1
    return tuple(counts)


def _direct_wants(s: RevirState, seat: int) -> tuple[int, ...]:
    counts = _direct_counts(s, seat)
    order = sorted(range(len(counts)), key=lambda c: -counts[c])[:2]
    return tuple(
        s.geo.t_square[i] for i in range(s.geo.nterr) if s.geo.t_colour[i] in order and s.owner[i] != seat
    )


def test_the_remembered_counts_and_wanted_squares_follow_the_board_asked_about() -> None:
    """``counts_of`` and ``want_squares`` remember the last board by identity; asked about
    boards in turn (2–4 seats, fights changing owners mid-game), they answer for each one."""
    games = []
    for seed, seats in ((1, 2), (2, 3), (3, 4), (4, 2)):
        s, rng = GAME.new(seats, seed), Rng(seed)
        path: list[RevirState] = []
        while s.to_act is not None and len(path) < 400:
            s.play(rng.choice(s.legal()))
            path.append(s.copy())
        games.append(path)
    changed = 0
    for step in range(0, 400, 3):
        for path in games:
            s = path[min(step, len(path) - 1)]
            changed += step > 0 and s.owner != path[min(step - 3, len(path) - 1)].owner
            for seat in range(s.seats):
                assert s.counts_of(seat) == _direct_counts(s, seat)
                assert s.colour_counts(seat) == list(_direct_counts(s, seat))
                assert want_squares(s, seat) == _direct_wants(s, seat)
    assert changed > 10
