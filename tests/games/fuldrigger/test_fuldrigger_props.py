"""Invariants over random games (Hypothesis), perft counts from positions written as text,
determinization, rendering and the trading bot."""

from __future__ import annotations

import copy
import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spillebord.core import IllegalAction, Rng
from spillebord.games.fuldrigger import GAME, FuldriggerOptions
from spillebord.games.fuldrigger import data as D
from spillebord.games.fuldrigger.positions import position, scenario
from spillebord.tables import replay_texts
from spillebord.testing import final_state, legal_counts, play, play_match, random_walk

WEIGHTS = {"sellship": 0.05, "end": 0.4, "attack": 6.0, "launch": 6.0, "join": 4.0, "fit": 2.0, "seize": 1.0}


def biased(state, rng):
    """A random player that rarely sells ships and likes privateering (more coverage)."""
    legal = state.legal()
    w = [WEIGHTS.get(a.verb, 1.0) for a in legal]
    x = rng.random() * sum(w)
    for a, wa in zip(legal, w, strict=True):
        x -= wa
        if x <= 0:
            return a
    return legal[-1]


def run(seats, seed, opts, check_every=1):
    """A biased random game (spillebord.testing.random_walk is uniform: this one reaches attacks),
    checking the invariants I1–I8 and I10 as it goes."""
    s = GAME.new(seats, seed, opts)
    rng = Rng(seed + 1)
    texts = []
    reefs = [frozenset()] * seats
    odo: dict[tuple[str, str, int], int] = {}
    kinds = set()
    while s.to_act is not None:
        if len(texts) % check_every == 0:
            s.check()
            for p in range(seats):
                assert reefs[p] <= s.reefs[p], "I7: reef knowledge shrank"
            reefs = list(s.reefs)
            for sh in s.ships.values():
                if sh.load is None or check_every > 1:
                    odo = {k: v for k, v in odo.items() if k[0] != sh.id}
                else:
                    key = (sh.id, sh.load.good, sh.load.price)
                    assert sh.load.odo >= odo.get(key, 0), "I6: odometer went down"
                    odo[key] = sh.load.odo
        a = biased(s, rng)
        for e in s.play(a):
            kinds.add(e["kind"])
        texts.append(str(a))
        assert len(texts) < GAME.kind.max_decisions
    s.check()
    assert s.round <= opts.rounds_limit and not s.truncated  # I12
    return s, texts, kinds


@settings(max_examples=6)
@given(
    seed=st.integers(0, 2**31),
    seats=st.integers(2, 4),
    isthmus=st.booleans(),
    eliminate=st.booleans(),
    port_rule=st.sampled_from(["any_fortress", "defender_fortress_only"]),
)
def test_I1_to_I13_invariants_over_random_games(seed, seats, isthmus, eliminate, port_rule):
    opts = FuldriggerOptions(
        rounds_limit=4, isthmus_variant=isthmus, eliminate_shipless=eliminate, port_attack_rule=port_rule
    )
    s, texts, _ = run(seats, seed, opts)
    out = s.outcome()
    assert out is not None and len(out) == seats and abs(sum(out) - 1.0) < 1e-9
    assert s.scores() == tuple(float(s.wealth(p)) for p in range(seats))  # I11
    again = replay_texts(GAME, seats, seed, opts, texts)
    assert again == s  # I13
    if eliminate:
        for p in range(seats):
            if s.eliminated[p]:
                assert s.n_ships(p) == 0 and s.n_forts(p) == 0 and s.cash[p] == 0  # I10


@settings(max_examples=4)
@given(seed=st.integers(0, 2**31), seats=st.integers(2, 4))
def test_I1_to_I8_uniform_random_walks(seed, seats):
    options = {"rounds_limit": 3, "isthmus_variant": True}
    states = random_walk(GAME, seats, seed, options)  # check() at every decision
    last = None
    for state in states:
        last = state
    assert last is not None and last.to_act is None and last.outcome() is not None


def test_random_games_reach_attacks_offers_and_hazards():
    kinds = set()
    for seed in range(6):
        _, _, k = run(3, seed, FuldriggerOptions(rounds_limit=12, isthmus_variant=True), check_every=5)
        kinds |= k
    assert {"attack", "offer", "buy", "chance", "fortress", "fit", "roll", "sail"} <= kinds


# ----------------------------------------------------------------------------- perft
#
# The counts below come from a small model of the rules written here, over the map as the
# rules print it (the lanes and ports text of rule 1.3), not from the engine's legal().

ADJ: dict[str, set[str]] = {}
for _line in D.LANES_TEXT.strip().splitlines():
    _chain = _line.split()[1:]
    for _a, _b in itertools.pairwise(_chain):
        ADJ.setdefault(_a, set()).add(_b)
        ADJ.setdefault(_b, set()).add(_a)
PORTS = set()
for _line in D.PORTS_TEXT.strip().splitlines():
    _code, _, _road, *_ = _line.split("|")
    PORTS.add(_code)
    ADJ.setdefault(_code, set()).add(_road)
    ADJ[_road].add(_code)
HEADWINDS = set(D.HAZARDS_TEXT[D.HEADWIND].split())
TAILWINDS = set(D.HAZARDS_TEXT[D.TAILWIND].split())
STORMS = set(D.HAZARDS_TEXT[D.STORM].split())


def model_counts(m, depth):
    """Decision sequences of length ``depth`` in the model (a finished game counts once)."""
    if depth == 0 or m["over"]:
        return 1
    return sum(model_counts(model_apply(m, t), depth - 1) for t in model_legal(m))


def model_legal(m):
    """Rules 4, 7.2, 9.1, 9.2 and 13.2 for positions of one ship a seat, no cash to trade
    with, no negotiation, no cargo, and no hazards on the way but winds and storms (which
    the scripted dice let every ship survive)."""
    p = m["to_act"]
    ship = m["ships"].get(p)
    if m["moving"]:
        steps = [n for n in ADJ[ship["at"]] if n not in m["visited"]] if m["mp"] > 0 else []
        return [f"sail {ship['id']} {n}" for n in steps] + ["stop"]
    out = []
    if ship is not None:
        sid = ship["id"]
        if not ship["moved"] and m["M"] > 0:
            out += [f"sail {sid} {n}" for n in ADJ[ship["at"]]]
        if ship["at"] == m["homes"][p] and not ship["converted"]:  # 9.1: free, in the home port
            out.append(f"unfit {sid}" if ship["privateer"] else f"fit {sid}")
        out.append(f"sellship {sid}")
        other = m["ships"].get(1 - p)
        # 9.2: an enemy ship at sea is a target when our unmoved privateer can get there
        # within M (no winds on these routes: the fewest steps decide).
        at_sea = other is not None and other["at"] not in PORTS
        if ship["privateer"] and not ship["moved"] and at_sea and _steps(ship["at"], other["at"]) <= m["M"]:
            out.append(f"attack {1 - p} {other['at']}")
    return [*out, "end"]


def _steps(a, b):
    """Fewest steps from ``a`` to ``b``, never through a port."""
    seen, frontier, d = {a}, {a}, 0
    while frontier and b not in frontier:
        d += 1
        frontier = {n for x in frontier if x == a or x not in PORTS for n in ADJ[x]} - seen
        seen |= frontier
    return d if b in frontier else 999


def model_apply(m, text):
    m = copy.deepcopy(m)
    p = m["to_act"]
    ship = m["ships"].get(p)
    verb, *args = text.split()
    if verb == "sail":
        to = args[1]
        if not m["moving"]:
            m["moving"], m["mp"], m["visited"] = True, m["M"], [ship["at"]]
        ship["at"] = to
        m["visited"].append(to)
        m["mp"] = m["mp"] - 1 + 3 * (to in TAILWINDS)
        if to in HEADWINDS:
            m["mp"] = max(0, m["mp"] - 3)
        if to in PORTS or m["mp"] <= 0 or all(n in m["visited"] for n in ADJ[to]):
            m["moving"], ship["moved"] = False, True  # 4.4: a port, or no movement left
    elif verb == "stop":
        m["moving"], ship["moved"] = False, True
    elif verb in ("fit", "unfit"):
        ship["privateer"], ship["converted"] = verb == "fit", True
    elif verb == "sellship":
        del m["ships"][p]
    elif verb == "end":
        if len(m["ships"]) == 1:  # 13.2: one fleet left
            m["over"] = True
        else:
            m["to_act"], m["M"] = 1 - p, m["rolls"].pop(0)
            for s in m["ships"].values():
                s["moved"] = s["converted"] = False
    return m


def _model(ships, M, rolls, homes=("LON", "AMS")):
    return {
        "to_act": 0,
        "M": M,
        "rolls": list(rolls),
        "homes": list(homes),
        "moving": False,
        "mp": 0,
        "visited": [],
        "over": False,
        "ships": {
            owner: {"id": f"s{i + 1}", "at": at, "moved": False, "converted": False, "privateer": False}
            for i, (owner, at) in enumerate(ships)
        },
    }


PERFT_AT_SEA = """
    seats: 2; turn: 0; M: 2
    cash: 0 0
    options: negotiation=false
    ship: 0 KANW          # s1, seat 0's merchant at the mouth of the Channel
    ship: 1 AMS           # s2, seat 1's merchant in its home port
    deck: 7               # the banker's next card: a race card, no effect on the moves
    dice: 5 5 5 5 5 5 5 5 5 5 5 5
"""

PERFT_HOME_PORT = """
    seats: 2; turn: 0; M: 3
    cash: 0 0
    options: negotiation=false
    ship: 0 LON           # s1 in its home port: it may sail out or hoist a privateer sail
    ship: 1 NAN1          # s2 at sea, two squares from the storm on NAN2
    deck: 7
    dice: 6 6 6 6 6 6 6 6 6 6 6 6
"""


@pytest.mark.parametrize(
    ("text", "ships", "M"),
    [(PERFT_AT_SEA, [(0, "KANW"), (1, "AMS")], 2), (PERFT_HOME_PORT, [(0, "LON"), (1, "NAN1")], 3)],
    ids=["at-sea", "home-port"],
)
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_perft_counts_from_positions(text, ships, M, depth):
    st1 = position(text)
    die = st1.rng.script[0]
    model = _model(ships, M, rolls=[3 * die] * 4)
    assert sorted(st1.legal_texts()) == sorted(model_legal(model))
    assert legal_counts(st1, depth) == model_counts(model, depth)


def test_perft_depth_one_by_brute_force_over_every_text():
    # Every well-formed text over the ships, squares and seats of the position is tried; the
    # engine accepts exactly those the rules allow (4.1 adjacency, 7.2, 9.1, end).
    st1 = position(PERFT_HOME_PORT)
    candidates = [f"sail s{i} {c}" for i in (1, 2, 3) for c in D.CODES]
    candidates += [f"{v} s{i}" for v in ("fit", "unfit", "sellship", "sell", "jettison") for i in (1, 2, 3)]
    candidates += [f"buy s{i} {g}" for i in (1, 2) for g in D.GOODS]
    candidates += [f"attack {d} {c}" for d in (0, 1) for c in D.CODES]
    candidates += [f"fortress {c}" for c in D.PORTS] + ["buyship", "end", "stop", "launch", "offer 1"]
    accepted = set()
    for t in candidates:
        c = st1.copy()
        try:
            c.play(GAME.parse(c, t))
        except IllegalAction:
            continue
        accepted.add(t)
    expected = {"sail s1 DOVR", "fit s1", "sellship s1", "end"}  # cash 0: no buy, ship or fortress
    assert accepted == expected == set(st1.legal_texts())


PERFT_DRAFT = """
    seats: 2; turn: 0; M: 5
    cash: 90 60
    fort: CAN 0; fort: BOM 1
    ship: 1 AMS           # s1; seat 0 has no ship (ending its turn ends the game, 13.2)
"""


def sums_to_add(amount, cash):
    """Rule 11.1 as the engine writes a sum: one digit times a place value, each place below
    the lowest digit already written, the total at most what the payer holds."""
    written = [i for i, ch in enumerate(reversed(str(amount))) if ch != "0"] if amount else []
    below = 10 ** min(written) if written else 10**9
    return [d * 10**k for k in range(9) for d in range(1, 10) if 10**k < below and amount + d * 10**k <= cash]


OTHER_CLAUSES = {"give fort CAN": 1, "ask fort BOM": 1, "ask ship s1": 1, "truce": 10}


def draft_count(depth, node=("draft", 0, 0, frozenset(), 1)):
    """Perft of the draft opened by ``offer 1`` in PERFT_DRAFT, from rule 11.1 as the engine
    plays it: cash each way written digit by digit (:func:`sums_to_add`, at most 90 given and
    60 asked); each fortress, ship and the truce (1–10 rounds) at most once; ``send`` once the
    draft says something (the recipient answers accept / decline / later / counter) or
    ``cancel`` (back to the free phase: ``offer 1`` again while fewer than three drafts were
    opened this turn, or ``end``, which ends the game as only seat 1 has ships)."""
    if depth == 0 or node[0] == "over":
        return 1
    if node[0] == "respond":
        assert depth == 1, "the model stops at the answer"
        return 4
    if node[0] == "free":
        drafts = node[1]
        total = draft_count(depth - 1, ("over",))
        if drafts < 3:
            total += draft_count(depth - 1, ("draft", 0, 0, frozenset(), drafts + 1))
        return total
    _, give, ask, used, drafts = node
    total = 0
    for n in sums_to_add(give, 90):
        total += draft_count(depth - 1, ("draft", give + n, ask, used, drafts))
    for n in sums_to_add(ask, 60):
        total += draft_count(depth - 1, ("draft", give, ask + n, used, drafts))
    for clause, ways in OTHER_CLAUSES.items():
        if clause not in used:
            total += ways * draft_count(depth - 1, ("draft", give, ask, used | {clause}, drafts))
    if give or ask or used:
        total += draft_count(depth - 1, ("respond",))
    total += draft_count(depth - 1, ("free", drafts))
    return total


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_perft_of_a_draft_with_each_clause_once(depth):
    st1 = position(PERFT_DRAFT)
    play(st1, "offer 1")
    assert legal_counts(st1, depth) == draft_count(depth)


def test_perft_draft_depth_one_by_brute_force_over_every_text():
    st1 = position(PERFT_DRAFT)
    play(st1, "offer 1")
    candidates = [f"{v} cash {n}" for v in ("give", "ask") for n in range(0, 2001)]
    candidates += [f"{v} fort {c}" for v in ("give", "ask") for c in D.PORTS]
    candidates += [f"{v} ship s{i}" for v in ("give", "ask") for i in range(4)]
    candidates += [f"{v} load {c}:{g}" for v in ("give", "ask") for c in ("SUE", "ALX") for g in ("Ka", "Kr")]
    candidates += [f"truce {n}" for n in range(-1, 13)] + ["send", "cancel", "end", "later", "pass"]
    accepted = set()
    for t in candidates:
        c = st1.copy()
        try:
            c.play(GAME.parse(c, t))
        except IllegalAction:
            continue
        accepted.add(t)
    expected = {f"give cash {n}" for n in [*range(1, 10), *range(10, 91, 10)]}
    expected |= {f"ask cash {n}" for n in [*range(1, 10), *range(10, 61, 10)]}
    expected |= {"give fort CAN", "ask fort BOM", "ask ship s1", "cancel"}
    expected |= {f"truce {n}" for n in range(1, 11)}
    assert accepted == expected == set(st1.legal_texts())


def test_determinize_hides_only_the_deck_order():
    s = GAME.new(3, 5)
    for _ in range(3):
        play(s, str(s.legal()[0]))
    d = s.determinize(1, Rng(9))
    assert sorted(d.deck) == sorted(s.deck) and d.view(1) == s.view(1)
    assert d.ships == s.ships and d.cash == s.cash and d.discard == s.discard
    assert any(d.determinize(1, Rng(k)).deck != s.deck for k in range(5))


def _turn_rolls(seed, pick):
    """Each turn's move roll, by (round, seat), in a game where ``pick`` chooses the actions."""
    s = GAME.new(2, seed, FuldriggerOptions(rounds_limit=8))
    rng = Rng(seed)
    rolls, actions = {}, []
    while s.to_act is not None:
        a = pick(s, rng)
        actions.append(str(a))
        for e in s.play(a):
            if e["kind"] == "roll":
                rolls[(s.round, e["seat"])] = e["dice"]
    return rolls, actions


def test_each_turn_rolls_its_own_dice_however_the_game_went():
    """Engine version 4: the dice are drawn by (round, seat, die of the turn) from the seed's
    dice key, so two games of one deal roll the same move dice in every turn both reach, even
    when the players' hazards and battles rolled differently before it (duplicate deals keep
    their dice); the turn order and the chance deck are dealt as before."""
    common = 0
    for seed in range(4):
        a, acts_a = _turn_rolls(seed, biased)
        b, acts_b = _turn_rolls(seed, lambda s, rng: s.legal()[0])
        assert acts_a != acts_b
        both = a.keys() & b.keys()
        common += len(both)
        assert all(a[k] == b[k] for k in both)
    assert common >= 40
    s, first = GAME.new(3, 8), Rng(8)
    from spillebord.games.fuldrigger.rules import _dice_order

    assert s.home_queue == tuple(_dice_order([0, 1, 2], first))
    deck = [c.num for c in D.CARDS]
    first.shuffle(deck)
    assert s.deck == deck


def test_the_dice_are_hidden_from_a_determinized_state():
    """A bot cannot know its next move roll: each determinization has its own dice key."""
    s = GAME.new(2, 3)
    while s.to_act is not None and "end" not in s.legal_texts():
        play(s, str(s.legal()[0]))
    rolls = set()
    for k in range(30):
        d = s.determinize(s.to_act, Rng(k))
        ev = play(d, "end")
        rolls.update(tuple(e["dice"]) for e in ev if e["kind"] == "roll")
    assert len(rolls) >= 10


def test_views_are_json_and_render():
    from rich.console import Console

    from spillebord.games.fuldrigger.render import render

    s, _, _ = run(3, 11, FuldriggerOptions(rounds_limit=3), check_every=50)
    for seat in (None, 0, 1, 2):
        json.dumps(s.view(seat))
        Console(width=120, file=open("/dev/null", "w")).print(render(s.view(seat), seat))  # noqa: SIM115


def test_every_action_has_a_label_and_json():
    final_state(GAME, 2, 3, {"rounds_limit": 2}, check=False)
    st1 = scenario(ships=[{"owner": 0, "at": "LON"}, {"owner": 1, "at": "AMS"}], forts={"CAN": 1})
    for a in st1.legal():
        assert a.label() and json.dumps(a.to_json())
    play(st1, "offer 1")
    for a in st1.legal():
        assert a.label() and a.to_json()["kind"] == a.verb


def test_truncation_at_the_decision_bound_ranks_by_wealth():
    st1 = scenario(ships=[{"owner": 0, "at": "LON"}, {"owner": 1, "at": "AMS"}], cash=[150, 100])
    st1.decisions = GAME.kind.max_decisions - 1
    ev = play(st1, "fit s1")
    assert st1.truncated and st1.to_act is None and st1.legal() == ()
    assert ev[-1]["kind"] == "truncated"
    assert st1.scores() == (250.0, 200.0) and st1.outcome() == (1.0, 0.0)


def _bot_vs_random(n_games, rounds):
    wins = 0
    for g in range(n_games):
        bot = g % 2
        players = ["trader", "random"] if bot == 0 else ["random", "trader"]
        m = play_match(GAME, players, 1000 + g, {"rounds_limit": rounds}, agent_seed=g)
        wins += m.scores[bot] > m.scores[1 - bot]
    return wins


def test_trader_beats_random():
    assert _bot_vs_random(40, 10) >= 36


@pytest.mark.slow
def test_trader_beats_random_200_games_30_rounds():
    assert _bot_vs_random(200, 30) >= 160


def test_trader_makes_money_against_itself():
    m = play_match(GAME, ["trader", "trader"], 77, {"rounds_limit": 12}, agent_seed=1)
    assert max(m.scores) > 600


def test_greedy_agent_runs():
    m = play_match(GAME, ["greedy", "random"], 5, {"rounds_limit": 2}, agent_seed=3)
    assert not m.truncated and m.decisions < 3000 and sum(m.outcome) == 1.0


def test_bots_are_registered_beside_the_rules():
    from spillebord.ai import best_agent, bots_for, make_agent
    from spillebord.games.fuldrigger import bots

    assert best_agent(GAME) == "raider" and bots_for(GAME).evaluate is bots.evaluate
    assert make_agent("trader", GAME).needs.determinization
    assert make_agent("raider", GAME).needs.determinization


def test_data_is_replaceable_tables():
    assert D.CARD_BY_NUM[1].cities == ("CAN",) and D.PRICES["KBH"]["Te"] == (200, False, True)


def _text(renderable, width):
    from rich.console import Console

    c = Console(width=width, color_system=None, record=True)
    with c.capture() as cap:
        c.print(renderable)
    return cap.get()


def test_render_draws_the_map_in_100_columns():
    from spillebord.games.fuldrigger.render import MapPicture, render

    st1 = scenario(
        ships=[{"owner": 0, "at": "NAN2", "privateer": True}, {"owner": 1, "at": "CAN"}],
        forts={"CAN": 1},
    )
    out = _text(render(st1.view(0), 0), 100)
    assert max(len(line) for line in out.splitlines()) <= 100
    # every lane, one mark per square: hazards, open sea, the seat of a ship lying there
    assert "KANW─NAN[·0·«▲·]─NEWF" in out and "RIOS─PAT[···ϟ··▲·]─HORNϟ" in out
    assert "CANS─PW[·ϟ···I···]─PMID≈" in out and "KAPV─TW[··»··A]─ANTS" in out
    # the ports at their roadsteads, with fortresses
    assert "CAN@CANS■" in out and "LON@DOVR" in out
    # the ship's square is drawn reversed in its owner's colour
    lanes = MapPicture(st1.view(0)).lanes
    nan = next(t for t in lanes if t.plain.startswith("KANW─NAN"))
    (span,) = [sp for sp in nan.spans if "reverse" in str(sp.style)]
    assert nan.plain[span.start : span.end] == "0" and "red" in str(span.style)
    assert len(out.splitlines()) <= 24
    # In 80 columns only the lanes and ports where ships lie (an 80×24 screen keeps room for
    # the last moves and the list).
    narrow = _text(render(st1.view(0), 0), 80).splitlines()
    assert "KANW─NAN[·0·«▲·]─NEWF" in "\n".join(narrow) and "PAT[" not in "\n".join(narrow)
    assert max(len(line) for line in narrow) <= 80 and len(narrow) <= 10


def test_render_shows_the_draft_being_built():
    from spillebord.games.fuldrigger.render import render

    st1 = scenario(
        ships=[{"owner": 0, "at": "LON"}, {"owner": 1, "at": "AMS"}], forts={"CAN": 1}, cash=[300, 100]
    )
    play(st1, "offer 1", "give cash 100", "give cash 30", "give cash 7", "ask fort CAN", "truce 2")
    out = _text(render(st1.view(0), 0), 100)
    assert "Draft: seat 0 gives 137 ducats; seat 1 gives fort CAN; truce 2 rounds" in out


def test_summarise_events_makes_a_move_one_line():
    """Bot turns in the terminal: one line per move, not one per square."""
    from spillebord.games.fuldrigger.render import summarise_events

    st1 = scenario(M=9, ships=[{"owner": 0, "at": "LON"}, {"owner": 1, "at": "AMS"}])
    ev = play(st1, *[f"sail s1 {sq}" for sq in ["DOVR", "KAN1", "KANW", "BIS1", "BIS2", "FINI"]])
    assert len(ev) == 7  # six squares and a head wind
    assert summarise_events(ev) == ["Seat 0's s1 sails DOVR → … → FINI (6 squares; head wind on BIS2)."]
    ev += play(st1, "buyship")
    lines = summarise_events(ev)
    assert len(lines) == 2 and lines[1].startswith("Seat 0 buys ship s3")


def test_bots_answer_windows_and_never_stall_a_game_with_offers():
    """Every other player gets a window each turn (rule 11.3): the trader and greedy bots pass
    them (greedy values an unsent draft of its own below passing), the random bot's offers are
    bounded by three drafts a turn, and the game ends far inside the decision bound."""
    from spillebord.ai import decide, make_agent

    for players in (["greedy", "trader", "random"], ["random", "random", "random"]):
        s = GAME.new(3, 11, FuldriggerOptions(rounds_limit=5))
        bots = [make_agent(name, GAME) for name in players]
        rng = Rng(4)
        windows = [0, 0, 0]
        drafts = [0, 0, 0]
        while s.to_act is not None:
            seat = s.to_act
            a = decide(bots[seat], s, rng)
            windows[seat] += s.phase == "window"
            drafts[seat] += a.verb in ("offer", "counter")
            s.play(a)
            assert s.drafts[seat] <= 3
        assert not s.truncated and s.decisions < 5_000
        assert all(w >= 5 for w in windows)  # a window in each of the others' turns
        for seat, name in enumerate(players):
            if name != "random":
                assert drafts[seat] == 0, name


SEA = [c for c in D.CODES if c not in D.PORTS]


def _reaches(u, x, mp, visited):
    """Rule 4 restated for the test, with no pruning: a simple path from ``u`` into ``x``
    within ``mp`` movement points, winds counted, through no port but ``x``."""
    for v in D.ADJ[u]:
        if v in visited or (D.IS_PORT[v] and v != x):
            continue
        if v == x:
            return True
        h = D.HAZARD_LIST[v]
        m = mp - 1 + (3 if h == D.TAILWIND else 0)
        m = max(0, m - 3) if h == D.HEADWIND else m
        if m > 0 and _reaches(v, x, m, visited | {v}):
            return True
    return False


@settings(max_examples=80, deadline=None)
@given(start=st.sampled_from(SEA), m=st.integers(1, 12), data=st.data(), order=st.randoms())
def test_R9_2_3_every_approach_the_player_may_choose_arrives(start, m, data, order):
    """An attack is offered exactly when a move of at most M can reach the target, and every
    route the player picks step by step then arrives (the dice here never stop a ship: storms,
    icebergs and calms roll 12)."""
    i0 = D.INDEX[start]
    near = [c for c in SEA if 0 < D.DIST[i0][D.INDEX[c]] <= m + 4]  # reachable or nearly so
    target = data.draw(st.sampled_from(near))
    s1 = scenario(
        ships=[{"owner": 0, "at": start, "privateer": True}, {"owner": 1, "at": target}], M=m, dice=[6] * 200
    )
    i, x = D.INDEX[start], D.INDEX[target]
    possible = _reaches(i, x, m, frozenset({i}))
    assert (f"attack 1 {target}" in s1.legal_texts()) == possible
    if not possible:
        return
    play(s1, f"attack 1 {target}", "join s1", "launch")
    steps = 0
    while s1.phase == "approach":
        s1.play(order.choice(s1.legal()))
        steps += 1
        assert steps <= m + 3 * 8
    assert s1.ships["s1"].node == x and s1.ships["s2"].owner == 0  # arrived; 12 captures
