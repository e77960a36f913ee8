"""A pinned digest of random play under many option sets: every legal list (content and
order), every event (its keys in order), the people's views and determinized samples (hands,
deck, and the legal lists and events of a few decisions played on them).

Speed work on the engine must leave all of these the same (docs/performance.md, "Partners,
sixth round"); the golden playthroughs cover the default options only. If a rule change
alters the digest on purpose, print the new value and say why in the commit."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from spillebord.core import Rng
from spillebord.core.options import build
from spillebord.games.partners.rules import PartnersGame

GAME = PartnersGame()
OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"pieces_per_colour": 2, "max_deals": 20},
    {"house_entry": "optional"},
    {"house_overshoot": "bounce"},
    {"split_must_use_all": False},
    {"discard_visibility": "hidden"},
    {"allow_voluntary_discard": True},
    {"swap_start_field": True, "allow_same_colour_swap": False},
    {"fields_per_segment": 6},
    {"deck_profile": "classic56", "lead_rule": "rotate_each_deal", "first_dealer": "draw_high"},
    {"fields_per_segment": 9, "pieces_per_colour": 3},
    {"deck_profile": "custom", "custom_deck": "S7:12,N5:4,HEART:6,SWAP:4,A114:4"},
]
DIGEST = "de998027ab0f2104432f0eff5bde5631c8dff0c1486dbfae1042955df0544df8"


def _digest() -> str:
    h = hashlib.sha256()
    for si, loose in enumerate(OPTION_SETS):
        opts = build(GAME.Options, loose)
        for people in (2, 3, 4):
            seed = 7919 * si + 101 * people
            rng = Rng(seed)
            s = GAME.new(people, seed, opts)
            k = 0
            while s.to_act is not None and k < 400:
                legal = s.legal()
                h.update(repr([str(a) for a in legal]).encode())
                if k % 11 == 0:
                    for p in range(people):
                        h.update(json.dumps(s.view(p)).encode())
                    d = s.determinize(s.to_act, Rng(seed * 31 + k))
                    h.update(repr((d.hands, d.deck, d.hdisc, d.commits, d.gave, d.gift_zone)).encode())
                    r2 = Rng(k)
                    for _ in range(12):
                        if d.to_act is None:
                            break
                        h.update(repr([str(a) for a in d.legal()]).encode())
                        h.update(json.dumps(d.play(r2.choice(d.legal()))).encode())
                h.update(json.dumps(s.play(rng.choice(legal))).encode())
                k += 1
    return h.hexdigest()


def test_random_play_digest_is_pinned() -> None:
    assert _digest() == DIGEST
