"""Every game's end summary (``games/<id>/summary.py``): computed from the final state, with the
row the game counts equal to its own scores, and the parts of Fuldrigger's wealth adding up."""

from __future__ import annotations

from typing import Any

import pytest

from spillebord.ai import decide, make_agent
from spillebord.core import Rng, registry
from spillebord.core.summary import summary_of

GAMES = [g for g in registry.all_games() if type(g).__module__.startswith("spillebord.games.")]


def final_state(game: Any, seats: int, seed: int) -> Any:
    state = game.new(seats=seats, seed=seed, options=game.Options(**game.quick_options))
    rng = Rng(seed)
    bot = make_agent("random", game)
    while state.to_act is not None:
        state.play(decide(bot, state, rng))
    return state


def counted(game_id: str, score: float) -> float:
    """The figure a game's summary totals, from its scores() (Revir packs its ranking, 88's
    points game negates the penalty points)."""
    if game_id == "revir":
        return score // 1_000_000
    return score


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_summary_total_is_the_games_own_score(game: Any) -> None:
    for seats in sorted({game.seats.start, game.seats.stop - 1}):
        state = final_state(game, seats, seed=5)
        s = summary_of(state)
        assert s is not None, f"{game.id} has no summary module"
        rows = {r["key"]: r["values"] for r in s["rows"]}
        assert all(len(v) == seats for v in rows.values())
        total = rows[s["total"]]
        sign = -1 if game.id == "88" and state.opts.scoring == "points" else 1
        assert [sign * v for v in total] == [counted(game.id, x) for x in state.scores()]


def test_fuldrigger_wealth_is_cash_ships_fortresses_and_goods() -> None:
    game = registry.get("fuldrigger")
    for seed in range(3):
        state = final_state(game, 3, seed)
        rows = {r["key"]: r["values"] for r in summary_of(state)["rows"]}  # type: ignore[index]
        for i in range(3):
            parts = rows["cash"][i] + rows["ships"][i] + rows["fortresses"][i] + rows["goods"][i]
            assert parts == rows["wealth"][i] == state.scores()[i]


def test_kasino_categories_count_the_last_rounds_piles() -> None:
    game = registry.get("kasino")
    state = final_state(game, 2, 1)
    rows = {r["key"]: r["values"] for r in summary_of(state)["rows"]}  # type: ignore[index]
    piles = state.view(None)["piles"]
    assert rows["cards"] == [p["count"] for p in piles]
    assert sum(rows["big_casino"]) <= 1 and sum(rows["little_casino"]) <= 1
    assert sum(rows["aces"]) <= 4 and sum(rows["spades"]) <= 13
