"""88's exact round search (``roundsearch``): the search ``ismcts`` and the levels 4–5 use for two
seats and peg scoring, its card law, its next-round terms and its choices."""

from __future__ import annotations

import pytest

from spillebord.ai import Budget, IsmctsAgent, LevelAgent, decide, make_agent
from spillebord.core import Rng
from spillebord.games.eightyeight import GAME, STANDARD, Move, Target, parse_panel
from spillebord.games.eightyeight.roundsearch import (
    RoundSearchAgent,
    best_distances,
    card_pairs,
    knobs,
    lookahead,
    next_round,
    panel_features,
)

DEFAULT_DECK = "5,5,5,5,5,5,5,5,5,5"


def test_ismcts_and_the_searching_levels_are_the_round_search_for_88() -> None:
    assert isinstance(make_agent("ismcts", GAME), RoundSearchAgent)
    for level in ("level4", "level5"):
        agent = make_agent(level, GAME)
        assert isinstance(agent, LevelAgent) and isinstance(agent.search, RoundSearchAgent)


def test_the_next_cards_law_has_55_readings_pairs_summing_to_one() -> None:
    pairs = card_pairs(DEFAULT_DECK)
    assert len(pairs) == 55  # 45 pairs of different digits and 10 doubles
    assert sum(p for p, _, _ in pairs) == pytest.approx(1.0)
    law = {(a, b): p for p, a, b in pairs}
    assert law[(55, 55)] == pytest.approx(5 / 50 * 4 / 49)
    assert law[(47, 74)] == pytest.approx(2 * 5 / 50 * 5 / 49)


def test_best_distances_of_example_d_are_zero_exactly_on_its_reachable_numbers() -> None:
    p = parse_panel("fg b c|ab c")  # 47, docs/rules/88.md Example D: 23 entries, 47 twice
    bd = best_distances(STANDARD, p)  # (Stay, and Rearrange to another 47)
    reach = {n for _, n in STANDARD.moves(p)}
    assert {t for t in range(100) if bd[t] == 0} == reach and len(reach) == 22
    assert bd[45] == 2  # 43 and 47 are the closest


def test_a_panel_that_reaches_more_hits_exactly_more_often() -> None:
    rigid = parse_panel("b c|b c")  # 11: 31 entries, all of them adds
    eighty_eight = parse_panel("ab cd fg e|ab c d e f g")  # Example A: 13 entries
    g_r, ex_r = panel_features(STANDARD, rigid, DEFAULT_DECK)
    g_e, ex_e = panel_features(STANDARD, eighty_eight, DEFAULT_DECK)
    assert ex_r > ex_e and g_r < g_e
    assert 0.0 <= ex_e <= ex_r <= 1.0


def test_the_next_round_favours_the_setter_against_its_own_panel() -> None:
    p = parse_panel("fg b c|ab c")
    result, alone = next_round(STANDARD, p, p, DEFAULT_DECK)
    # the same panel on both sides: an exact hit is shared (0), every other round is the setter's
    # (it wins ties), so it shares only when both readings are exact
    reach = {n for _, n in STANDARD.moves(p)}
    both = sum(q for q, a, b in card_pairs(DEFAULT_DECK) if a in reach and b in reach)
    assert result == pytest.approx(1.0 - both) and alone == 0.0
    assert both == pytest.approx(0.118, abs=0.001)


def test_the_setter_on_the_second_to_last_hole_reads_the_cards_as_the_number_it_can_hit() -> None:
    # 47 reaches 40 (add) but not 04: an exact setter takes the last hole (R15)
    s = GAME.position(["fg b c|ab c", "b c|b c"], cards=(0, 4), pegs=[9, 5])
    ranked = RoundSearchAgent(GAME).analyse(s, 0, Rng(1))
    assert ranked[0][0] == Target(40) and ranked[0][2] == 1.0
    assert ranked[1][0] == Target(4) and ranked[1][2] < 1.0


def test_the_other_player_takes_the_last_hole_when_it_can_hit_alone() -> None:
    s = GAME.position(["b c|b c", "fg b c|ab c"], target=74, pegs=[5, 9])
    s.play(s.legal()[0])  # the setter stays on 11, 37 away
    assert s.to_act == 1
    agent = RoundSearchAgent(GAME)
    ranked = agent.analyse(s, 1, Rng(1))
    assert ranked[0][0] == Move("rearrange", 74) and ranked[0][2] == 1.0
    assert decide(agent, s, Rng(2)) == Move("rearrange", 74)


def test_analyse_ranks_every_legal_move_with_a_chance_and_act_plays_the_first() -> None:
    s = GAME.position(["fg b c|ab c", "b c|b c"], cards=(3, 8), pegs=[4, 3])
    agent = RoundSearchAgent(GAME)
    s.play(agent.act(s, 0, Rng(1)))
    assert s.to_act == 0 and s.phase == "move"
    ranked = agent.analyse(s, 0, Rng(1))
    assert {a for a, _, _ in ranked} == set(s.legal())
    assert all(0.0 <= v <= 1.0 for _, _, v in ranked)
    assert [v for _, _, v in ranked] == sorted((v for _, _, v in ranked), reverse=True)
    assert agent.act(s, 0, Rng(1)) == ranked[0][0]


def test_a_game_of_the_round_search_is_legal_and_reproducible() -> None:
    def play(seed: int) -> tuple[tuple[int, ...], int]:
        s = GAME.new(2, seed, GAME.Options(track_length=3))
        bots = [make_agent("ismcts", GAME), make_agent("heuristic", GAME)]
        rng = Rng(seed)
        while s.to_act is not None:
            a = decide(bots[s.to_act], s, rng, Budget(iterations=40))
            assert a in s.legal()
            s.play(a)
        return s.pegs, s.round_no

    assert play(3) == play(3)


def test_other_games_of_88_go_to_the_generic_search() -> None:
    s = GAME.new(3, 1)  # three seats, the setup: not the round search's
    agent = RoundSearchAgent(GAME)
    assert not agent.covers(s)
    assert isinstance(agent.fallback, IsmctsAgent)
    a = agent.act(s.determinize(0, Rng(1)), 0, Rng(1), Budget(iterations=20))
    assert a in s.legal()


def test_the_budget_sets_the_shortlist_and_the_deeper_look() -> None:
    assert knobs(300) == (12, 0)  # the Expert: no deeper look
    assert knobs(1200) == (48, 8)  # the Master
    assert knobs(1) == (1, 0)


def test_the_lookahead_is_a_chance_that_grows_with_the_pegs() -> None:
    s = GAME.position(["fg b c|ab c", "b c|b c"], cards=(3, 8), pegs=[4, 3])
    a, b = parse_panel("fg b c|ab c"), parse_panel("b c|b c")
    ahead = lookahead(s, (5, 3), 0, a, b)
    behind = lookahead(s, (3, 5), 0, a, b)
    assert 0.0 < behind < 0.5 < ahead < 1.0
    # on the last-but-one hole, the setter wins at least whenever it can hit a reading exactly
    _, ex = panel_features(STANDARD, a, DEFAULT_DECK)
    assert lookahead(s, (9, 3), 0, a, b) >= ex


def test_the_master_looks_a_round_further_than_the_expert() -> None:
    s = GAME.position(["fg b c|ab c", "b c|b c"], cards=(3, 8), pegs=[4, 3])
    agent = RoundSearchAgent(GAME)
    agent.analyse(s, 0, Rng(1), Budget(iterations=300))
    expert = agent.last_iterations
    agent.analyse(s, 0, Rng(1), Budget(iterations=1200))
    assert agent.last_iterations > expert  # more positions weighed: 48 panels, 8 of them deeper
