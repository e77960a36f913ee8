"""The caches of the Metscri state (issue 20: speed) never change what the rules say.

``_mv`` (the moves of every square, brought up to date after each change of the board),
``_occ`` (the occupied squares) and the existence test of a group (``_any_group``) are checked
against the same state with every cache dropped, at every decision of random games, under the
default options and under the options that change how cards move and group.
"""

from __future__ import annotations

from typing import Any

import pytest

from spillebord.core import Rng
from spillebord.games.metscri import GAME, MetscriOptions
from spillebord.games.metscri.actions import MOVE_OBJ, REVEAL_OBJ, SPY_OBJ, TURN_OBJ
from spillebord.games.metscri.data import COLLECT, MOVE, SPY, SPY_COST, SQUARES, TURN
from spillebord.games.metscri.rules import MetscriState

OPTIONS: list[dict[str, Any]] = [
    {},
    {"diagonal_steps": True},
    {"allow_same_level_step": True},
    {"slide_any_length": False},
    {"collect_adjacency": "pairwise", "joker_rule": "strict_table"},
    {"jokers_only_groups": True, "max_groups_per_turn": 1},
]


def fresh(s: MetscriState) -> MetscriState:
    """``s`` with every cache dropped: what the rules give from the board alone."""
    f = s.copy()
    f._legal = None
    f._legal_set = None
    f._gcache = None
    f._mv = None
    f._occ = None
    return f


@pytest.mark.parametrize(
    "options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default"
)
def test_kept_moves_and_occupancy_agree_with_the_board(options: dict[str, Any]) -> None:
    for seed in range(3):
        s = GAME.new(2, seed, MetscriOptions(**options))
        rng = Rng(seed)
        for _ in range(1500):
            if s.to_act is None:
                break
            f = fresh(s)
            assert s.legal() == f.legal()
            if s._occ is not None:
                assert s._occ == f._occupied()
            if s._mv is not None:
                assert [m for seg in s._mv for m in seg] == f._moves()
                # and the moves read from the line tables are the rules' destinations
                assert f._moves() == [MOVE_OBJ[a][b] for a in SQUARES for b in s.destinations(a)]
            if s.phase in (TURN, SPY):  # the lists read from the bytes of the square mask
                tops = [q for q in SQUARES if s.board[q] and not (s.up >> q) & 1]
                if s.phase == TURN:
                    expect: list[Any] = [TURN_OBJ[q] for q in tops] if s.ap >= s.turned else []
                else:
                    reveal = s.pending >= 0 and s.opts.reveal_after_spy
                    expect = [REVEAL_OBJ[s.pending]] if reveal else []
                    expect += [SPY_OBJ[q] for q in tops if SPY_COST[q] <= s.ap]
                assert s._phase_actions(s.phase) == expect
            for p in (MOVE, COLLECT):
                assert s._has_phase_actions(p) == f._has_phase_actions(p)
            if s.up:
                g = fresh(s)
                assert g._any_group() == bool(g._groups())
            s.play(rng.choice(s.legal()))
