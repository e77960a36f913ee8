"""The Revir heuristic bot: registered, sensible in set positions, and clearly better than random."""

from __future__ import annotations

from spillebord.ai import decide, make_agent
from spillebord.core import Rng
from spillebord.games.revir import GAME, RevirState, build_position
from spillebord.games.revir.rules import Bid, Fight, Hunt, Move, Stay, Surrender

P1, P2 = 0, 1


def test_bot_is_registered_as_best() -> None:
    assert GAME.best_bot == "heuristic"
    assert make_agent("best", GAME).name == "heuristic"


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
    assert GAME.evaluate(a, P1) > GAME.evaluate(b, P1)
    c = build_position(stones=(15, 10))
    d = build_position(stones=(5, 10))
    assert GAME.evaluate(c, P1) > GAME.evaluate(d, P1)


def play_game(bots: list[object], seed: int) -> RevirState:
    s = GAME.new(len(bots), seed)
    r = Rng(seed * 7 + 1)
    while not s.is_over:
        s.play(decide(bots[s.to_act], s, r))  # type: ignore[arg-type,index]
    return s


def test_heuristic_beats_random_in_200_three_seat_games() -> None:
    share = 0.0
    for g in range(200):
        hs = g % 3
        bots = [make_agent("heuristic" if i == hs else "random", GAME) for i in range(3)]
        res = play_game(bots, g).result()
        assert res is not None
        share += res[hs] / sum(res)
    assert share / 200 >= 0.8
