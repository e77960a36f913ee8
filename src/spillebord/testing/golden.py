"""Golden playthroughs: a whole game written down step by step, replayed in CI.

A playthrough file (JSON Lines, one step a line) pins an engine's behaviour: the legal list,
every seat's view and the spectator's, the action chosen and the events, at every decision,
then the final views, outcome and scores. Actions are chosen by a seeded uniform random
player, so the file exercises the whole game. Any change in behaviour (the RNG's draw order,
the order of ``legal()``, a notation, a view field) shows as a diff: either a bug, or a
deliberate new engine version (raise ``Game.version`` and write the file again)::

    python -m spillebord.testing.golden --write kasino      # after a deliberate change
    python -m spillebord.testing.golden --check             # what the tests do

Modelled on OpenSpiel's playthroughs.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from spillebord.core import AnyGame, Rng, registry
from spillebord.core.options import build as build_options
from spillebord.core.options import to_dict as options_to_dict

FORMAT = "spillebord-playthrough"
DEFAULT_DIR = Path(__file__).resolve().parents[3] / "tests" / "golden"


def playthrough(game: AnyGame, seats: int, seed: int, options: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The lines of one playthrough (header, one line a decision, the end)."""
    opts = build_options(game.Options, options)
    yield {
        "format": FORMAT,
        "game": game.id,
        "version": game.version,
        "seats": seats,
        "seed": seed,
        "options": options_to_dict(opts),
        "player": "uniform random legal action, Rng(seed ^ 0x60D)",
    }
    state = game.new(seats, seed, opts)
    rng = Rng(seed ^ 0x60D)
    seat_ids: list[int | None] = [None, *range(seats)]
    n = 0
    while state.to_act is not None:
        legal = state.legal()
        action = rng.choice(legal)
        line = {
            "n": n,
            "to_act": state.to_act,
            "legal": [str(a) for a in legal],
            "views": [state.view(s) for s in seat_ids],
            "action": str(action),
        }
        line["events"] = state.play(action)
        yield line
        n += 1
    yield {
        "end": True,
        "decisions": n,
        "truncated": state.truncated,
        "views": [state.view(s) for s in seat_ids],
        "outcome": list(state.outcome() or ()),
        "scores": list(state.scores()),
    }


def dumps(line: dict[str, Any]) -> str:
    return json.dumps(line, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def path_for(game_id: str, directory: Path = DEFAULT_DIR) -> Path:
    return directory / f"{game_id}.jsonl"


def read_header(path: Path) -> dict[str, Any]:
    with path.open(encoding="utf-8") as f:
        header: dict[str, Any] = json.loads(f.readline())
    return header


def write(game: AnyGame, seats: int, seed: int, options: dict[str, Any], path: Path) -> int:
    """Write a playthrough file; the number of decisions in it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = list(playthrough(game, seats, seed, options))
    path.write_text("".join(dumps(x) + "\n" for x in lines), encoding="utf-8")
    return len(lines) - 2


def compare(path: Path) -> str | None:
    """Replay the playthrough in ``path`` on the current engine; ``None`` when identical,
    otherwise a message naming the first line that differs and how."""
    header = read_header(path)
    game = registry.get(header["game"])
    if header["version"] != game.version:
        return (
            f"{path.name}: written by engine version {header['version']}, the engine is version "
            f"{game.version}: write the playthrough again (--write {game.id})"
        )
    expected = path.read_text(encoding="utf-8").splitlines()
    produced = playthrough(game, header["seats"], header["seed"], header["options"])
    for i, want in enumerate(expected):
        got_line = next(produced, None)
        got = dumps(got_line) if got_line is not None else "<no line: the game ended earlier>"
        if got != want:
            return f"{path.name}, line {i + 1}: the engine now differs:\n{_diff(want, got)}"
    extra = next(produced, None)
    if extra is not None:
        return f"{path.name}: the game goes on past the file's end: {dumps(extra)[:300]}"
    return None


def _diff(want: str, got: str) -> str:
    try:
        a, b = json.loads(want), json.loads(got)
    except json.JSONDecodeError:
        return f"  file: {want[:300]}\n  now:  {got[:300]}"
    out = []
    for key in sorted(set(a) | set(b)):
        if a.get(key) != b.get(key):
            out.append(
                f"  {key}: file {json.dumps(a.get(key))[:300]}\n  {' ' * len(key)}  now  "
                f"{json.dumps(b.get(key))[:300]}"
            )
    return "\n".join(out) or "  (formatting only)"


# The games' playthrough settings: short rule sets so that the files stay reviewable.
SETTINGS: dict[str, dict[str, Any]] = {}


def settings_for(game: AnyGame) -> dict[str, Any]:
    return SETTINGS.get(game.id) or {
        "seats": game.seats.start,
        "seed": 7,
        "options": dict(game.quick_options),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m spillebord.testing.golden", description=__doc__.split("\n")[0]
    )
    p.add_argument(
        "--write", nargs="*", metavar="GAME", help="write the playthroughs of these games (all if none)"
    )
    p.add_argument("--check", action="store_true", help="compare every playthrough with the engines")
    p.add_argument("--dir", type=Path, default=DEFAULT_DIR)
    args = p.parse_args(argv)
    if args.write is not None:
        games = [registry.get(g) for g in args.write] or registry.all_games()
        for game in games:
            s = settings_for(game)
            n = write(game, s["seats"], s["seed"], s["options"], path_for(game.id, args.dir))
            print(f"{game.id}: {n} decisions -> {path_for(game.id, args.dir)}")
        return 0
    failed = 0
    for path in sorted(args.dir.glob("*.jsonl")):
        try:
            msg = compare(path)
        except Exception as e:  # one broken engine must not hide the others' results
            msg = f"{path.name}: the replay raised {type(e).__name__}: {e}"
        print(msg or f"{path.name}: identical")
        failed += msg is not None
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
