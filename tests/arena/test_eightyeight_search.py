"""88's round search (the game's ``ismcts``) against its heuristic bot (the slow job).

The generic ISMCTS scored 0.300 (0.145-0.519) at 320 iterations over 20 games; the exact round
search at the Expert's budget (300 iterations: 12 setter panels weighed with the pair terms, no
deeper look) scores 0.580 (0.482-0.672) over these 100 (docs/bots.md). Its choices do not
depend on the random stream, so this replays exactly those games.
"""

from __future__ import annotations

import pytest

from spillebord.arena import BotSpec, Tournament, run


@pytest.mark.slow
def test_eightyeight_round_search_outscores_the_heuristic_at_the_expert_budget() -> None:
    t = Tournament("88", (BotSpec.parse("ismcts@300it"), BotSpec("heuristic")), games=100, seed=1)
    pair = run(t, workers=2).pairs[0]
    assert pair.score >= 0.55, f"ismcts@300it vs heuristic: {pair.score:.3f} {pair.interval}"
