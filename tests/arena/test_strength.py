"""Every game's strength claims, measured with the arena (the slow job runs these).

The best bot of each game must beat random play and, where it is not greedy itself, the greedy
one-ply bot: the lower end of the 95% interval of its score must clear the bar. Seats rotate
and deals are played in duplicate; partnership games put one bot on each partnership.
"""

from __future__ import annotations

from itertools import pairwise

import pytest

from spillebord.ai import best_agent, bots_for
from spillebord.arena import BotSpec, Tournament, run
from spillebord.core import AnyGame, registry

GAMES = [g for g in registry.all_games() if type(g).__module__.startswith("spillebord.games.")]
SEATS = {"partners": 4}  # two partnerships of two, one bot each
OPTIONS = {"metscri": {"max_rounds": 60}}  # random play never reaches Metscri's target
GAMES_PER_PAIR = {"metscri": 40}  # the planner thinks for seconds a game: 40 keep the job short


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_the_best_bot_beats_random_and_greedy(game: AnyGame) -> None:
    best = best_agent(game)
    bots = [BotSpec(best), BotSpec("random")] + ([BotSpec("greedy")] if best != "greedy" else [])
    t = Tournament(
        game.id,
        tuple(bots),
        games=GAMES_PER_PAIR.get(game.id, 100),
        seats=SEATS.get(game.id),
        options=OPTIONS.get(game.id, {}),
        seed=11,
    )
    report = run(t, workers=2)
    by_pair = {(p.first, p.second): p for p in report.pairs}
    vs_random = by_pair[(best, "random")]
    assert vs_random.interval[0] > 0.8, f"{best} vs random: {vs_random.score:.3f} {vs_random.interval}"
    if best != "greedy":
        vs_greedy = by_pair[(best, "greedy")]
        assert vs_greedy.interval[0] > 0.5, f"{best} vs greedy: {vs_greedy.score:.3f} {vs_greedy.interval}"


# The search: at a small iteration budget (deterministic, unaffected by a busy machine), ismcts
# beats the game's best heuristic bot. Full figures at larger budgets: docs/bots.md.
SEARCH = {"kasino": ("450it", 40)}  # a quarter second (the Expert); on Kasino v2: 0.825 (0.68–0.91)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", sorted(SEARCH))
def test_search_beats_the_best_bot(game_id: str) -> None:
    game = registry.get(game_id)
    budget, games = SEARCH[game_id]
    best = best_agent(game)
    t = Tournament(
        game_id,
        (BotSpec.parse(f"ismcts@{budget}"), BotSpec(best)),
        games=games,
        seats=SEATS.get(game_id),
        options=OPTIONS.get(game_id, {}),
        seed=1,
    )
    pair = run(t, workers=2).pairs[0]
    assert pair.interval[0] > 0.5, f"ismcts@{budget} vs {best}: {pair.score:.3f} {pair.interval}"


LADDER_GAMES = {"metscri": 10, "fuldrigger": 10}  # long games: fewer deals


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_each_level_beats_the_one_below(game: AnyGame) -> None:
    """Beginner < Casual < Club, and Club < Expert where the Expert is a bot that does not
    search (Metscri's gatherer, ``GameBots.levels``); the searching levels are measured in the
    arena (docs/bots.md, "The ladder, measured")."""
    expert = 4 in bots_for(game).levels
    levels = ("level1", "level2", "level3", "level4") if expert else ("level1", "level2", "level3")
    t = Tournament(
        game.id,
        tuple(BotSpec(name) for name in levels),
        games=LADDER_GAMES.get(game.id, 20),
        seats=SEATS.get(game.id),
        options=OPTIONS.get(game.id, {}),
        seed=17,
    )
    by_pair = {(p.first, p.second): p for p in run(t, workers=2).pairs}
    for low, high in pairwise(levels):
        p = by_pair[(low, high)]
        assert p.score < 0.5, f"{high} does not beat {low}: {low} scores {p.score:.3f} {p.interval}"
