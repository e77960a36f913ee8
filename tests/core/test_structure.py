"""The shape of the code: no import cycles, rules beside (never importing) bots, one package
layout for every game, nothing outside the repository needed."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import spillebord

SRC = Path(spillebord.__file__).parent
ROOT = SRC.parents[1]
GAMES = sorted(p.name for p in (SRC / "games").iterdir() if (p / "__init__.py").exists())
LAYOUT = ("__init__.py", "data.py", "options.py", "actions.py", "rules.py", "view.py", "render.py", "bots.py")
"""Every game package has these modules (and may have more: notation, board geometry, positions)."""


def _module_name(path: Path) -> str:
    rel = path.relative_to(SRC.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in SRC.rglob("*.py")}


def _is_type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING"
    )


def _imports(module: str) -> set[str]:
    """Every spillebord module ``module`` imports at run time (top level or inside functions;
    not under ``if TYPE_CHECKING``)."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for sub in child.orelse:
                    visit(sub)
                continue
            if isinstance(child, ast.Import):
                for alias in child.names:
                    if alias.name in MODULES:
                        found.add(alias.name)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")
                    base = base[: len(base) - (child.level - 1)]
                    target = ".".join([*base, child.module] if child.module else base)
                else:
                    target = child.module or ""
                for alias in child.names:
                    sub = f"{target}.{alias.name}"
                    if sub in MODULES:
                        found.add(sub)
                    elif target in MODULES:
                        found.add(target)
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    found.discard(module)
    return found


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    cycles: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def dfs(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                cycles.append([*stack[stack.index(n) :], n])
            elif n not in state:
                dfs(n)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            dfs(m)
    return cycles


def test_no_import_cycle_anywhere() -> None:
    cycles = _cycles({m: _imports(m) for m in MODULES})
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_the_walker_finds_a_cycle() -> None:
    # The check above must be able to fail: a package whose rules import its bots and whose
    # bots import its rules is a cycle.
    assert _cycles({"g.rules": {"g.bots"}, "g.bots": {"g.data", "g.rules"}, "g.data": set()}) == [
        ["g.bots", "g.rules", "g.bots"]
    ]
    assert _cycles({"g.rules": {"g.data"}, "g.bots": {"g.rules"}, "g.data": set()}) == []
    assert _imports("spillebord.ai.greedy") >= {"spillebord.ai.agent", "spillebord.ai.registry"}


def _bots_side(pkg: str) -> set[str]:
    """``bots.py`` and the game's modules only the bots side imports (88's round search)."""
    mine = [m for m in MODULES if m == pkg or m.startswith(pkg + ".")]
    side = {f"{pkg}.bots"}
    grown = True
    while grown:
        grown = False
        for m in mine:
            importers = {o for o in mine if o != m and m in _imports(o)}
            if m not in side and importers and importers <= side:
                side.add(m)
                grown = True
    return side


@pytest.mark.parametrize("game", GAMES)
def test_rules_never_import_bots(game: str) -> None:
    pkg = f"spillebord.games.{game}"
    side = _bots_side(pkg)
    for module in MODULES:
        if module.startswith(pkg + ".") and module not in side:
            imported = _imports(module) - {pkg}
            assert not imported & side, f"{module} imports the bots ({sorted(imported & side)})"
            ai = sorted(m for m in imported if m == "spillebord.ai" or m.startswith("spillebord.ai."))
            assert not ai, f"{module} imports {ai}: only bots.py (and what only it imports) may"


def test_the_bots_side_is_what_only_the_bots_import() -> None:
    assert _bots_side("spillebord.games.eightyeight") == {
        "spillebord.games.eightyeight.bots",
        "spillebord.games.eightyeight.roundsearch",
    }
    assert _bots_side("spillebord.games.kasino") == {"spillebord.games.kasino.bots"}


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_the_same_layout(game: str) -> None:
    have = {p.name for p in (SRC / "games" / game).glob("*.py")}
    missing = [m for m in LAYOUT if m not in have]
    assert not missing, f"games/{game} lacks {missing}"


@pytest.mark.parametrize("folder", ["src", "tests", "benchmarks", "docs"])
def test_nothing_reaches_outside_the_repository(folder: str) -> None:
    pattern = re.compile(r"\.\./shared|shared/(spec|seeds)")
    offenders = []
    for path in (ROOT / folder).rglob("*"):
        if path.is_file() and path.suffix in {".py", ".md", ".js", ".html", ".toml", ".txt"}:
            text = path.read_text(encoding="utf-8", errors="replace")
            if pattern.search(text):
                offenders.append(str(path.relative_to(ROOT)))
    assert not offenders, f"files that refer outside the repository: {offenders}"
