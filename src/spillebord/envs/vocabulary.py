"""Write the games' action vocabularies: ``python -m spillebord.envs.vocabulary --write [GAME…]``.

A vocabulary is frozen once written (the action space's size and token ids must not move under
a trained policy): rewrite one only with a new engine notation, and say so in the commit.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from spillebord.core import registry

from .tokens import harvest

HERE = Path(__file__).parent / "vocab"


def main(argv: list[str] | None = None) -> int:
    """Harvest the words of random games' action texts and write ``vocab/<game>.txt``."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("games", nargs="*", help="game ids (default: every game)")
    p.add_argument("--write", action="store_true", help="write the files (else print the counts)")
    p.add_argument("--games-per", type=int, default=40, help="random games per game to harvest")
    args = p.parse_args(argv)
    for gid in args.games or [g.id for g in registry.all_games()]:
        game = registry.get(gid)
        words = sorted(harvest(game, args.games_per), key=lambda w: (len(w), w))
        print(f"{gid}: {len(words)} words")
        if args.write:
            head = f"# {game.title}: the words of its action texts (one token each); others are spelled\n"
            (HERE / f"{gid}.txt").write_text(head + "\n".join(words) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
