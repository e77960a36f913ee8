"""Compile Spillebord's hot engine modules in place with mypyc (optional; pure Python is the default).

    python tools/compile.py                 # build DEFAULT's modules (next to their .py files)
    python tools/compile.py kasino touche   # these games' modules (see MODULES)
    python tools/compile.py --list          # which modules are compiled now
    python tools/compile.py --clean         # remove the built extension modules again

The extension modules (``*.so``) land next to the ``.py`` files in ``src/``, so ``import
spillebord`` picks them up (an editable install too); ``--clean`` removes them and Python falls
back to the ``.py`` files. Needs mypyc (``pip install mypy``), a C compiler and the Python
headers. Nothing is installed and the package's build system is unchanged.
``--list`` shows what is built; ``benchmarks/side_by_side.py`` prints which modules it ran compiled.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PKG = SRC / "spillebord"

MODULES: dict[str, list[str]] = {
    # the engine modules random play, search and RL spend their time in
    "kasino": ["games/kasino/rules.py", "games/kasino/actions.py", "games/kasino/scoring.py"],
    "partners": ["games/partners/rules.py", "games/partners/board.py", "games/partners/position.py"],
    "touche": ["games/touche/rules.py", "games/touche/bots.py"],
    "eightyeight": ["games/eightyeight/rules.py"],
    "revir": ["games/revir/rules.py"],
    "fuldrigger": ["games/fuldrigger/rules.py"],
}
DEFAULT = ["kasino", "partners"]
"""Built when no game is named: where compiling pays for random play (docs/performance.md).
Touché, 88 and Revir compile and pass their tests too, but their engines run no faster (their
states are not native classes, so attribute access stays generic); name them to build them
anyway. Touché's heuristic (``bots.py``) does gain: its search takes about a sixth less CPU a
decision, the same decisions. Fuldrigger's rules gain too (random play 1.23 to 1.27 times the
decisions a CPU second), but its pure engine already meets issue 20's 2.0: name it to build it.
Kasino compiles its rules, its actions and its scoring; the action classes and ``Tally`` stay
plain dataclasses (``native_class=False``), only their methods and the modules' functions are
compiled (docs/performance.md, "Kasino, compiled, second round")."""


def built_files() -> list[Path]:
    """Extension modules built from this tree (also mypyc's shared runtime library)."""
    out = [p for p in PKG.rglob("*") if p.suffix in (".so", ".pyd")]
    out += [p for p in SRC.glob("*__mypyc*") if p.suffix in (".so", ".pyd")]
    return sorted(out)


def stale_files() -> list[Path]:
    """Extension modules older than their ``.py``: Python imports the extension, so an edit of
    the source would silently not run (rebuild, or ``--clean``). The tests refuse to start
    with one (``tests/conftest.py``)."""
    out = []
    for p in built_files():
        py = p.with_name(p.name.split(".", 1)[0] + ".py")
        if py.exists() and py.stat().st_mtime > p.stat().st_mtime:
            out.append(p)
    return out


def clean() -> None:
    files = built_files()
    for p in files:
        p.unlink()
    print(f"removed {len(files)} extension module(s)" + "".join(f"\n  {p.relative_to(SRC)}" for p in files))


def build(games: list[str], opt_level: str) -> None:
    try:
        from mypyc.build import mypycify
        from setuptools import Distribution
    except ImportError:
        sys.exit("mypyc is missing: pip install mypy setuptools")
    unknown = [g for g in games if g not in MODULES]
    if unknown:
        sys.exit(f"unknown game(s) {unknown}; choose from {sorted(MODULES)}")
    clean()  # stale .so files of modules dropped from the list would shadow their .py
    paths = [f"spillebord/{m}" for g in games for m in MODULES[g]]
    here = Path.cwd()
    os.chdir(SRC)  # mypyc names modules by their path from the working directory
    tmp = tempfile.mkdtemp(prefix="spillebord-mypyc-")
    os.environ["MYPY_CACHE_DIR"] = os.path.join(tmp, "cache")  # nothing but the .so files in src/
    try:
        ext = mypycify(paths, opt_level=opt_level, target_dir=os.path.join(tmp, "c"))
        dist = Distribution({"name": "spillebord-compiled", "ext_modules": ext})
        cmd = dist.get_command_obj("build_ext")
        cmd.inplace = True
        cmd.build_temp = os.path.join(tmp, "temp")
        cmd.build_lib = os.path.join(tmp, "lib")
        cmd.parallel = os.cpu_count() or 1
        cmd.ensure_finalized()
        cmd.run()
    finally:
        os.chdir(here)
        shutil.rmtree(tmp, ignore_errors=True)
    print("compiled:", ", ".join(p.removesuffix(".py").replace("/", ".") for p in paths))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "games", nargs="*", help=f"Games to compile, of {sorted(MODULES)} (default: {' '.join(DEFAULT)})."
    )
    p.add_argument("--clean", action="store_true", help="Remove the built extension modules and exit.")
    p.add_argument("--list", action="store_true", help="Print the compiled modules found and exit.")
    p.add_argument("--opt-level", default="3", help="C optimisation level for mypyc (default 3).")
    args = p.parse_args()
    if args.clean:
        clean()
    elif args.list:
        old = set(stale_files())
        for f in built_files():
            print(f.relative_to(SRC), "(STALE: older than its .py, which it shadows)" if f in old else "")
    else:
        build(args.games or DEFAULT, args.opt_level)


if __name__ == "__main__":
    main()
