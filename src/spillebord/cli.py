"""The ``spillebord`` command: serve, play, replay, bench, games, rules.

Every command has help text (``spillebord COMMAND --help``); every error a user can cause is
printed as one readable line and exit code 2, never a traceback.
"""

from __future__ import annotations

import importlib
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.pretty import Pretty
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table as RichTable

from spillebord import __version__
from spillebord.core import AnyGame, Rng, SpillebordError, State, registry
from spillebord.core.options import build as build_options
from spillebord.core.options import parse_pairs, schema
from spillebord.core.summary import summary_of
from spillebord.texts import LANGS, GameText, lang_from_env
from spillebord.words import say

app = typer.Typer(
    name="spillebord",
    help="Spillebord: seven Scandinavian table games. Play, serve, replay and benchmark them.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",
)
console = Console()
err_console = Console(stderr=True)


def _show_version(value: bool) -> None:
    if value:
        console.print(f"spillebord {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", "-V", help="Print the version and exit.", callback=_show_version, is_eager=True
        ),
    ] = False,
) -> None:
    """Spillebord: seven Scandinavian table games. Play, serve, replay and benchmark them."""


def _progress() -> Progress:
    """The progress bar of long commands (on stderr, only on a terminal, gone when done)."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err_console,
        transient=True,
        disable=not err_console.is_terminal,
    )


def _duration(seconds: float) -> str:
    """A short, readable duration: 45s, 6m 12s, 2h 05m."""
    s = int(seconds + 0.5)
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m {s % 60:02d}s"
    return f"{s // 3600}h {s % 3600 // 60:02d}m"


class _ArenaProgress:
    """How far an arena run has got. On a terminal: the bar, its label carrying the first
    bot's score so far when two bots play. Elsewhere (a log file, a run in the background): a
    plain line on stderr for the first new game, then at most every ``every`` seconds, and at
    the end, with the time left and that score and its 95% interval, so a run of hours shows
    where it stands while it runs. ``blind``: no score until every game is played."""

    def __init__(
        self,
        progress: Progress,
        game_id: str,
        bots: list[str],
        every: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
        blind: bool = False,
    ) -> None:
        self.progress = progress
        self.task = progress.add_task(f"arena {game_id}", total=None)
        self.game_id = game_id
        self.bots = bots
        self.plain = progress.disable  # no terminal: lines instead of a bar
        self.every = every
        self.clock = clock
        self.start = clock()
        self.last: float | None = None
        self.points = 0.0
        self.counted = 0
        self.resumed = 0
        self.blind = blind
        self.games = 0
        """Games counted so far, those read back from the results file included."""

    def game(self, result: dict[str, Any], resumed: bool) -> None:
        from spillebord.arena import first_points

        self.games += 1
        if len(self.bots) == 2:  # one pairing: the first bot's running score means something
            self.points += first_points(result)
            self.counted += 1
        if resumed:
            self.resumed += 1

    def score(self) -> str:
        from spillebord.arena.stats import wilson

        if not self.counted:
            return ""
        mean = self.points / self.counted
        lo, hi = wilson(mean, self.counted)
        return f"{self.bots[0]} {mean:.3f} (95% {lo:.3f}–{hi:.3f}) against {self.bots[1]}"

    def tick(self, done: int, total: int) -> None:
        score = "" if self.blind and done < total else self.score()
        if not self.plain:
            label = f"arena {self.game_id}" + (f" · {score}" if score else "")
            self.progress.update(self.task, completed=done, total=total, description=label)
            return
        now = self.clock()
        if self.last is not None and now - self.last < self.every and done < total:
            return
        self.last = now
        elapsed = now - self.start
        played = done - self.resumed
        parts = [f"arena {self.game_id}: {done}/{total} games"]
        if self.resumed:
            parts[0] += f" ({self.resumed} from the results file)"
        parts.append(_duration(elapsed))
        if played > 0 and done < total:
            parts.append(f"about {_duration(elapsed / played * (total - done))} left")
        line = ", ".join(parts) + (f"; {score}" if score else "")
        print(line, file=sys.stderr, flush=True)


def fail(message: str, code: int = 2) -> typer.Exit:
    err_console.print(f"[bold red]error:[/] {message}", soft_wrap=True)  # one line, however long
    return typer.Exit(code)


LangOption = Annotated[
    str | None,
    typer.Option(
        "--lang",
        help="Language of the game's texts and messages: en, da, sv or no "
        "(default: from LC_ALL, LC_MESSAGES or LANG; else en).",
    ),
]


def _lang(value: str | None) -> str:
    """``--lang``, or the locale's language; an unknown one is a one-line error."""
    if value is None:
        return lang_from_env()
    code = value.strip().lower()
    if code not in LANGS:
        raise fail(f"--lang {value!r} is not a language here: choose one of {', '.join(LANGS)}")
    return code


def _game(game_id: str) -> AnyGame:
    try:
        return registry.get(game_id)
    except SpillebordError as e:
        raise fail(str(e)) from None


def _renderer(game: AnyGame) -> Any:
    """The game's terminal picture: every game package has ``render.render(view, seat)``
    (the package layout guarantees it); a game registered from elsewhere may have none."""
    pkg = ".".join(type(game).__module__.split(".")[:3])
    try:
        return importlib.import_module(f"{pkg}.render").render
    except (ImportError, AttributeError):
        return None


def event_lines(game: AnyGame, events: list[dict[str, Any]], lang: str = "en") -> list[str]:
    """The events as lines for a person in ``lang``: a game's ``render.summarise_events``
    when it has one (Fuldrigger makes a move of many squares one line), else each event's
    line (its template in the language, else its text)."""
    pkg = ".".join(type(game).__module__.split(".")[:3])
    gt = GameText(game.id, lang)
    try:
        summarise = importlib.import_module(f"{pkg}.render").summarise_events
    except (ImportError, AttributeError):
        return [line for ev in events if (line := gt.event_line(ev))]
    if lang == "en":
        return list(summarise(events))
    return list(summarise(events, gt))


def _takes_lang(fn: Callable[..., Any]) -> bool:
    """Whether a renderer draws in other languages (a game registered from elsewhere may
    have a renderer of ``(view, seat)`` only)."""
    import inspect

    try:
        return "lang" in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False


def render_view(game: AnyGame, view: dict[str, Any], seat: int | None, lang: str = "en") -> RenderableType:
    fn = _renderer(game)
    if fn is not None:
        try:
            if lang != "en" and _takes_lang(fn):  # a renderer of its own words in other languages
                return fn(view, seat, lang=lang)  # type: ignore[no-any-return]
            return fn(view, seat)  # type: ignore[no-any-return]
        except Exception as e:  # a renderer bug must not end a game
            return Panel(Pretty(view), title=f"{game.title} (renderer failed: {e})")
    return Panel(Pretty(view), title=game.title)


# ---------------------------------------------------------------------------- games


@app.command("games")
def games_cmd(
    game_id: Annotated[str | None, typer.Argument(help="Show one game's options in full.")] = None,
    lang_opt: LangOption = None,
) -> None:
    """List the games with their seat ranges and options (one game's options' meanings in the
    language of --lang, its bots and what each level plays; the games' summaries are in
    English)."""
    lang = _lang(lang_opt)
    if game_id is not None:
        g = _game(game_id)
        gt = GameText(g.id, lang)
        t = RichTable(title=f"{g.title} ({g.id}): {g.seats.start}–{g.seats.stop - 1} " + say(lang, "players"))
        for col in ("option", "default", "values", "meaning"):
            t.add_column(say(lang, f"col_{col}"), overflow="fold")
        for o in schema(g.Options):
            values = " | ".join(map(str, o.get("choices", []))) or o["kind"]
            # the rule the option sets, as the web's table form says it (English: the engine's)
            meaning = o["help"] if gt.english else gt.template("option_help", o["name"]) or o["help"]
            t.add_row(o["name"], str(o["default"]), values, meaning)
        console.print(g.summary)
        console.print(t)
        console.print(_bots_text(g, lang))
        return
    t = RichTable(title="Spillebord games")
    for col in ("id", "title", "players", "summary", "options"):
        t.add_column(col, overflow="fold")
    for g in registry.all_games():
        t.add_row(
            g.id, g.title, f"{g.seats.start}–{g.seats.stop - 1}", g.summary, str(len(schema(g.Options)))
        )
    console.print(t)
    console.print("[dim]spillebord games GAME shows one game's options with their meaning.[/]")


def _bots_text(game: AnyGame, lang: str) -> str:
    """The game's bots (the names --bots takes) and what each level plays, in ``lang``."""
    from spillebord.ai import agent_names, best_agent
    from spillebord.ai.levels import ladder

    names = [n for n in agent_names(game) if not n.startswith("level")]
    levels = []
    for level, (bot, iterations) in ladder(game).items():
        called = say(lang, f"level{level}")
        if bot == "search":
            levels.append(f"{called} ({say(lang, 'level_search', n=iterations)})")
        else:
            levels.append(called if bot == "softmax" else f"{called} ({bot})")
    return (
        say(lang, "bots_line", names=", ".join(names), best=best_agent(game))
        + "\n"
        + say(lang, "levels_line", levels=" · ".join(levels))
    )


@app.command("rules")
def rules_cmd(
    game_id: Annotated[str, typer.Argument(help="Game id, e.g. kasino.")], lang_opt: LangOption = None
) -> None:
    """Show how a game is played here: its summary, turn structure and options (the rules'
    text is in English, as on the web; the options' meanings in the language of --lang)."""
    lang = _lang(lang_opt)
    g = _game(game_id)
    mod = importlib.import_module(type(g).__module__)
    pkg = importlib.import_module(".".join(type(g).__module__.split(".")[:3]))
    doc = (pkg.__doc__ or "") + "\n" + (mod.__doc__ or "")
    console.print(Panel(doc.strip() or g.summary, title=f"{g.title} ({g.id})"))
    games_cmd(g.id, lang)


# ---------------------------------------------------------------------------- play


def _parse_bots(spec: str | None, game: AnyGame, seats: int) -> list[str]:
    from spillebord.ai import agent_names, best_agent, canonical

    best = best_agent(game)
    if spec is None:
        return ["human"] + [best] * (seats - 1)
    if spec.strip() in ("all", "best"):
        return [best] * seats
    names = [canonical(s.strip()) for s in spec.split(",") if s.strip()]  # "master" is level5
    if len(names) == 1:
        names = names * seats
    if len(names) != seats:
        raise fail(f"--bots names {len(names)} seats but the table has {seats}")
    known = {"human", "all", "best", *agent_names(game)}
    for n in names:
        if n not in known:
            raise fail(
                f"no agent {n!r}; known: {', '.join(sorted(known))} "
                "(and the levels by name: beginner, casual, club, expert, master)"
            )
    return [best if n in ("all", "best") else n for n in names]


def _who(agent: str, lang: str = "en") -> str:
    """A seat's player as people call it: a level by its name ("level5" → "Master (level5)",
    in Danish "Mester (level5)", as the web names them)."""
    from spillebord.ai import LEVEL_NAMES

    if agent.startswith("level") and agent[5:].isdigit() and int(agent[5:]) in LEVEL_NAMES:
        name = LEVEL_NAMES[int(agent[5:])] if lang == "en" else say(lang, agent)
        return f"{name} ({agent})"
    return agent


def _score_table(game: AnyGame, players: list[str], state: State[Any], lang: str = "en") -> RichTable:
    """The final table: each seat's own score and its outcome (won, lost, a share)."""
    outcome = state.outcome() or ()
    title = say(lang, "final", title=game.title)
    if state.truncated:
        title += say(lang, "truncated", n=f"{state.decisions:,}")
    # The game's end summary, as the web's end screen shows it (Revir: the longest series,
    # territories, stones), rather than its one ranking number (2008000); else that number.
    # One column a seat: the rows fit a narrow terminal at any count of summary rows.
    summ = summary_of(state)
    if summ is not None:
        key = summ["total"]
        gt = GameText(game.id, lang)
        rows = [(gt.summary(r["key"]), r["values"], r["key"] == key) for r in summ["rows"]]
    else:
        rows = [(say(lang, "score"), list(state.scores()), True)]
    n = state.seats
    t = RichTable(title=title)
    t.add_column("")
    for i in range(n):
        t.add_column(f"{i}: {players[i] if i < len(players) else '?'}", justify="right")
    for label, values, total in rows:
        cells = [f"{values[i]:,.10g}" if i < len(values) else "" for i in range(n)]
        t.add_row(label, *cells, style="bold" if total and len(rows) > 1 else None)
    results = []
    for i in range(n):
        o = outcome[i] if i < len(outcome) else 0.0
        results.append(
            say(lang, "won")
            if o == 1.0
            else say(lang, "lost")
            if o == 0.0
            else say(lang, "shared", o=f"{o:.2g}")
        )
    t.add_row(say(lang, "outcome"), *results)
    return t


def _draw(picture: RenderableType) -> None:
    """One screen: a terminal is cleared first, so the board never scrolls away; piped output
    gets a separator instead."""
    if console.is_terminal:
        console.clear()
    else:
        console.rule(style="dim")
    console.print(picture)


HINT_BUDGET_SECONDS = 1.0


def _hint_text(table: Any, seat: int, gt: GameText | None = None) -> str:
    """The strongest bot's choice and its next two, with the estimated chances of winning,
    computed from what ``seat`` may know (the search samples only from its determinizations).
    In another language than English each choice is shown by its label, then its text."""
    from spillebord.ai import Budget
    from spillebord.ai.review import hint, hint_analyst

    lang = gt.lang if gt is not None else "en"
    with console.status(say(lang, "thinking")):
        tips = hint(
            hint_analyst(table.game), table.state, seat, Rng(len(table.log)), Budget(HINT_BUDGET_SECONDS)
        )

    def shown(text: str) -> str:
        if gt is None or gt.english:
            return text
        try:
            label = gt.action_label(table.game.parse(table.state, text))
        except Exception:  # a tip the game cannot read back: its text alone
            return text
        return text if label == text else f"{label} ({text})"

    return say(lang, "hint") + " · ".join(
        f"{i}. {shown(str(t.action))} ({t.chance:.0%})" for i, t in enumerate(tips, 1)
    )


_now = time.monotonic
"""The terminal clock's time (the tests replace it)."""


class _OutOfTime(Exception):
    """The person at the keyboard answered after their clock ran out (``play --clock``)."""


def _terminal_clock(spec: str, seats: int) -> tuple[Any, Any]:
    """(TimeControl, Clocks) of ``--clock MINUTES+SECONDS``: the server's clock logic."""
    from spillebord.server.timecontrol import Clocks, TimeControl

    bank, _, inc = spec.partition("+")
    try:
        minutes, seconds = float(bank), float(inc or 0)
    except ValueError:
        raise SpillebordError(f"--clock {spec!r}: give MINUTES+SECONDS, e.g. 5+3") from None
    if not (0 < minutes <= 24 * 60 and 0 <= seconds <= 3600):
        raise SpillebordError("--clock: 0 to 1440 minutes, plus 0 to 3600 seconds a decision")
    control = TimeControl("realtime", bank=minutes * 60, increment=seconds)
    return control, Clocks.new(control, seats)


def _forced(table: Any) -> str | None:
    legal = table.state.legal()
    return str(legal[0]) if len(legal) == 1 else None


def _clock_line(timing: tuple[Any, Any], kinds: list[str], now: float, lang: str = "en") -> str:
    control, clocks = timing
    parts = []
    for i, k in enumerate(kinds):
        if k != "human":
            continue
        left = clocks.remaining(control, i, now)
        text = f"{say(lang, 'seat', n=i)} {int(left // 60)}:{int(left % 60):02d}"
        parts.append(f"[bold]{text}[/]" if clocks.seat == i else text)
    return say(lang, "clocks") + "  ".join(parts)


def _ask_human(
    table: Any,
    seat: int,
    moves: list[str],
    hints: bool = True,
    clock: Callable[[], str] | None = None,
    expired: Callable[[], bool] | None = None,
    lang: str = "en",
) -> list[Any] | None:
    """Show the seat's screen (board, last moves, the legal actions grouped and paged, the last
    error) and play what the person chooses; return the events (None = quit). ``?`` asks for a
    hint when the game allows them. With ``play --clock``: ``clock`` is shown in the prompt, and
    an answer after ``expired`` raises :class:`_OutOfTime` (the action is not played).
    ``lang``: the language of the labels, board and messages (the typed notation is the same)."""
    from spillebord.terminal import QUIT, Picker, screen

    game = table.game
    gt = GameText(game.id, lang)
    picker = Picker.of(table.state.legal(), gt.action_label, lang)
    error: str | None = None
    while True:
        width, rows = console.size
        board = render_view(game, table.view(seat), seat, lang)
        _draw(screen(board, moves, picker, error, width, rows, lang))
        try:
            shown = f"{clock()} · " if clock is not None else ""
            raw = console.input(f"{shown}[bold]{say(lang, 'seat', n=seat)}[/]{say(lang, 'prompt')}").strip()
        except EOFError:
            return None
        if raw.lower() in QUIT:
            return None
        if raw in ("?", "hint", "tip", "tips"):
            error = _hint_text(table, seat, gt) if hints else say(lang, "hints_off")
            continue
        text, error = picker.answer(raw, lambda t: game.parse(table.state, t))
        if text is None:
            continue
        if expired is not None and expired():
            raise _OutOfTime
        try:
            return table.act(seat, text)  # type: ignore[no-any-return]
        except SpillebordError as e:
            error = str(e)


def _writable(path: Path, what: str) -> Path:
    """Refuse, before the game starts, a record path that cannot be written (a directory, a
    read-only place), rather than failing after the whole game was played."""
    if path.is_dir():
        raise fail(f"{what} {path} is a directory: name a file, e.g. {path / 'game.json'}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        existed = path.exists()
        with path.open("a", encoding="utf-8"):
            pass
        if not existed:
            path.unlink()
    except OSError as e:
        raise fail(f"cannot write {what} {path}: {e.strerror or e}") from None
    return path


def _autosave_path(game_id: str) -> Path:
    import platformdirs

    stamp = time.strftime("%Y%m%d-%H%M%S")
    return Path(platformdirs.user_data_dir("spillebord")) / "games" / f"{game_id}-{stamp}.json"


@app.command("play")
def play_cmd(
    game_id: Annotated[str, typer.Argument(help="Game id (see `spillebord games`).")],
    seats: Annotated[int | None, typer.Option("--seats", "-n", help="Number of players.")] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            "-b",
            help="An agent per seat, comma-separated: human, a level (beginner, casual, club, expert, "
            "master), random, greedy, or the game's own (spillebord games GAME lists them); 'all' = "
            "every seat the game's strongest bot. Default: you in seat 0, bots elsewhere.",
        ),
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", "-s", help="Seed for shuffles and dice (default 0).")
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="A rule option KEY=VALUE (repeatable).")
    ] = None,
    quick: Annotated[bool, typer.Option("--quick", help="Use the game's short-game options.")] = False,
    save: Annotated[
        Path | None,
        typer.Option(
            "--save", help="Write the game record (JSON) to this file (with --resume: the resumed file)."
        ),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(
            "--resume",
            help="Continue the unfinished game saved in this record (from --save or a quit); "
            "give the game id 'resume' or the record's game.",
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Bots-only: print only the result.")] = False,
    no_hints: Annotated[bool, typer.Option("--no-hints", help="Switch hints (?) off for this game.")] = False,
    clock: Annotated[
        str | None,
        typer.Option(
            "--clock",
            help="A real-time clock for the people at the keyboard, MINUTES+SECONDS: a bank and an "
            "increment per decision (e.g. 5+3). Out of time, the game's best bot takes the seat; "
            "forced decisions are played at once and cost nothing.",
        ),
    ] = None,
    lang_opt: LangOption = None,
) -> None:
    """Play a game in the terminal against bots or at one keyboard, or continue a saved one.

    At your turn: a number plays that action, an action's text plays it, part of one (a card,
    a square, a word) narrows the list; Enter pages through a long list, ? asks the strongest
    bot for a hint (its top three with their chances of winning, from your view only), q quits
    (the game is kept for --resume).
    """
    from spillebord.ai import best_agent, decide, make_agent
    from spillebord.tables import Table

    lang = _lang(lang_opt)
    if resume is not None:
        if seats is not None or seed is not None or option or quick:
            raise fail(
                "--resume continues the saved table as it was: --seats, --seed, --option "
                "and --quick do not apply"
            )
        try:
            record = _read_record(resume, None)
            table = Table.from_record(record)
        except FileNotFoundError:
            raise fail(f"no such file: {resume}") from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
            raise fail(f"{resume} is not a readable game record: {e}") from None
        except SpillebordError as e:
            raise fail(str(e)) from None
        game = table.game
        if game_id not in ("resume", game.id):
            raise fail(f"{resume} is a game of {game.id}, not {game_id}")
        if table.is_over:
            raise fail(f"the game in {resume} is finished: `spillebord replay {resume}` shows it")
        n = table.seats
        saved = list(record.get("players") or [])
        try:
            kinds = _parse_bots(bots, game, n) if bots is not None or len(saved) != n else saved
            agents = {i: make_agent(k, game) for i, k in enumerate(kinds) if k != "human"}
        except SpillebordError as e:
            raise fail(str(e)) from None
        table.players = list(kinds)
        if save is None:
            save = resume
    else:
        game = _game(game_id)
        n = seats if seats is not None else game.seats.start
        try:
            opts = dict(game.quick_options) if quick else {}
            opts.update(parse_pairs(option))
            kinds = _parse_bots(bots, game, n)
            table = Table.create(game, n, seed or 0, opts, players=kinds)
            agents = {i: make_agent(k, game) for i, k in enumerate(kinds) if k != "human"}
        except SpillebordError as e:
            raise fail(str(e)) from None
    if save is not None:
        _writable(save, "the record")
    try:
        timing = _terminal_clock(clock, n) if clock else None
    except SpillebordError as e:
        raise fail(str(e)) from None
    rng = Rng(table.seed ^ 0xB07 ^ len(table.log))
    humans = [i for i, k in enumerate(kinds) if k == "human"]
    if not quiet:
        console.print(
            f"[bold]{game.title}[/]"
            + say(lang, "players_head", title="", n=n)
            + ", ".join(f"{i}={_who(k, lang)}" for i, k in enumerate(kinds))
        )
    moves = 0
    recent: list[str] = []  # what happened since the person's last decision
    while not table.is_over:
        seat = table.to_act
        assert seat is not None
        if seat in agents:
            action = decide(agents[seat], table.state, rng)
            events = table.act(seat, str(action))
        else:
            if timing is not None:
                control, clocks = timing
                forced = _forced(table)
                if forced is not None:  # one legal action: played at once, at no cost
                    moves += 1
                    if humans and not quiet:
                        recent += event_lines(game, table.act(seat, forced), lang)
                    else:
                        table.act(seat, forced)
                    continue
                clocks.start(seat, _now(), moves)
                try:
                    got = _ask_human(
                        table,
                        seat,
                        recent,
                        hints=not no_hints,
                        clock=lambda: _clock_line(timing, kinds, _now(), lang),
                        expired=lambda: timing[1].expired(timing[0], _now()) is not None,
                        lang=lang,
                    )
                except _OutOfTime:
                    clocks.time_out(control)
                    best = best_agent(game)
                    agents[seat] = make_agent(best, game)
                    kinds[seat] = best
                    recent.append(say(lang, "out_of_time", n=seat, best=best))
                    console.print(f"[red]{recent[-1]}[/]")
                    continue
                if got is not None:
                    clocks.stop(control, _now())
            else:
                got = _ask_human(table, seat, recent, hints=not no_hints, lang=lang)
            if got is None:
                if save is None:  # nothing lost: an unfinished game is kept for --resume
                    save = _autosave_path(game.id)
                console.print(f"[yellow]{say(lang, 'unfinished', path=save)}[/]")
                console.print(f"[dim]{say(lang, 'continue', game=game.id, path=save)}[/]")
                break
            events = got
            recent = []
        moves += 1
        if humans and not quiet:
            recent += event_lines(game, events, lang)
    if save is not None:
        try:
            save.parent.mkdir(parents=True, exist_ok=True)
            save.write_text(table.to_json(), encoding="utf-8")
        except OSError as e:
            raise fail(f"cannot write the record {save}: {e.strerror or e}") from None
        if not quiet:
            console.print(say(lang, "saved", path=save))
    if table.is_over:
        if not quiet and humans:
            console.print(render_view(game, table.view(humans[0]), humans[0], lang))
            for text in recent[-8:]:
                console.print(f"[dim]· {text}[/]")
        console.print(_score_table(game, [_who(k, lang) for k in kinds], table.state, lang))
        if not quiet:
            console.print(f"[dim]{say(lang, 'decisions', n=moves)}[/]")


# ---------------------------------------------------------------------------- replay


@app.command("replay")
def replay_cmd(
    file: Annotated[Path, typer.Argument(help="A game record (JSON) from `play --save` or the server.")],
    seat: Annotated[
        int | None, typer.Option("--seat", help="Whose eyes to see through (default: a spectator's).")
    ] = None,
    to: Annotated[int | None, typer.Option("--to", help="Show the position after this many actions.")] = None,
    all_steps: Annotated[bool, typer.Option("--all", help="Print every step without waiting.")] = False,
    game_no: Annotated[
        int | None, typer.Option("--game", help="In an arena results file: the game with this number.")
    ] = None,
    lang_opt: LangOption = None,
) -> None:
    """Step through a saved game: Enter for the next action, a number to jump, q to quit."""
    from spillebord.tables import Table

    lang = _lang(lang_opt)
    try:
        record = _read_record(file, game_no)
    except FileNotFoundError:
        raise fail(f"no such file: {file}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise fail(f"{file} is not a readable game record: {e}") from None
    try:
        full = Table.from_record(record)
    except SpillebordError as e:
        raise fail(str(e)) from None
    game = full.game
    total = len(full.log)
    if seat is not None and not 0 <= seat < full.seats:
        raise fail(f"--seat must be 0–{full.seats - 1}")

    def show(k: int) -> None:
        t = Table.from_record(record, upto=k)
        head = say(lang, "after", k=k, n=total)
        if k:
            s, a = full.log[k - 1]
            head += f" — {say(lang, 'seat', n=s)}: {_replay_label(record, k, a, lang)}"
        console.rule(head)
        console.print(render_view(game, t.view(seat), seat, lang))

    if to is not None or (not sys.stdin.isatty() and not all_steps):
        show(min(to if to is not None else total, total))
    elif all_steps:
        for k in range(total + 1):
            show(k)
    else:
        k = 0
        show(k)
        while True:
            try:
                raw = console.input(say(lang, "replay_prompt")).strip()
            except EOFError:
                break
            if raw == "q":
                break
            if raw == "b":
                k = max(0, k - 1)
            elif raw.isdigit():
                k = min(int(raw), total)
            else:
                k = min(k + 1, total)
            show(k)
    if full.is_over:
        console.print(_score_table(game, list(record.get("players") or ["?"] * full.seats), full.state, lang))


def _replay_label(record: dict[str, Any], k: int, text: str, lang: str) -> str:
    """The ``k``-th action of a record as a replay's heading shows it: its text in English;
    in another language its label there, with the text beside it."""
    if lang == "en":
        return text
    from spillebord.tables import Table

    try:
        before = Table.from_record(record, upto=k - 1)
        label = GameText(before.game.id, lang).action_label(before.game.parse(before.state, text))
    except Exception:  # an action the game cannot read back here: its text
        return text
    return text if label == text else f"{label} ({text})"


def _read_record(file: Path, game_no: int | None) -> dict[str, Any]:
    """A game record: the file itself, or game ``game_no`` of an arena results file (JSON
    Lines: a header naming the tournament, then a line per game)."""
    text = file.read_text(encoding="utf-8")
    first, _, rest = text.partition("\n")
    try:
        header = json.loads(first)
    except json.JSONDecodeError:
        header = None
    if not (isinstance(header, dict) and header.get("format") == "spillebord-arena"):
        record: dict[str, Any] = json.loads(text)
        return record
    desc = header["tournament"]
    if game_no is None:
        raise SpillebordError(f"{file} is an arena results file: name a game with --game N")
    for line in rest.splitlines():
        try:
            r = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short by an interruption
        if r.get("index") == game_no:
            return {
                "format": "spillebord-record",
                "version": 2,
                "game": desc["game"],
                "engine": desc["engine"],
                "seats": desc["seats"],
                "seed": r["seed"],
                "options": desc["options"],
                "players": [desc["bots"][b] for b in r["seat_bots"]],
                "actions": [{"seat": s, "action": a} for s, a in r["actions"]],
            }
    raise SpillebordError(f"{file} has no game {game_no}")


# ---------------------------------------------------------------------------- review

REVIEW_STYLE = {
    "blunder": "bold red",
    "mistake": "red",
    "inaccuracy": "yellow",
    "best": "green",
    "forced": "dim",
}


def _review_cache(key: dict[str, Any]) -> Path:
    """Where a review is cached: one JSON file per (record, seat, budget, engine)."""
    import hashlib

    import platformdirs

    digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:32]
    return Path(platformdirs.user_cache_dir("spillebord")) / "reviews" / f"{digest}.json"


@app.command("review")
def review_cmd(
    file: Annotated[Path, typer.Argument(help="A finished game's record (JSON) or an arena results file.")],
    seat: Annotated[int, typer.Option("--seat", help="Whose decisions to review.")] = 0,
    budget: Annotated[
        str, typer.Option("--budget", help="Search per decision: iterations (500it) or time (1s).")
    ] = "400it",
    samples: Annotated[
        int, typer.Option("--samples", help="Playouts comparing the played and the best action.")
    ] = 32,
    game_no: Annotated[
        int | None, typer.Option("--game", help="In an arena results file: the game with this number.")
    ] = None,
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="Compute again, ignoring a cached review.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the review as JSON.")] = False,
    lang_opt: LangOption = None,
) -> None:
    """Review one seat's decisions: the move played, the search's best move and the estimated
    loss in chance of winning, with mistakes and blunders marked.

    Only what that seat could see is used. Reviews are cached per record, seat and budget.
    """
    from spillebord.ai.review import hint_analyst, positions, review_game
    from spillebord.arena.schedule import ArenaError, budget_text, parse_budget
    from spillebord.tables import Table

    lang = _lang(lang_opt)
    try:
        record = _read_record(file, game_no)
        table = Table.from_record(record)
        b = parse_budget(budget)
    except FileNotFoundError:
        raise fail(f"no such file: {file}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise fail(f"{file} is not a readable game record: {e}") from None
    except (SpillebordError, ArenaError) as e:
        raise fail(str(e)) from None
    if not 0 <= seat < table.seats:
        raise fail(f"--seat must be 0–{table.seats - 1}")
    if samples < 1:
        raise fail("--samples must be at least 1")
    game = table.game
    key = {
        "review": 1,
        "game": game.id,
        "engine": game.version,
        "seats": table.seats,
        "seed": table.seed,
        "options": record.get("options") or {},
        "actions": table.log,
        "seat": seat,
        "budget": budget_text(b),
        "samples": samples,
    }
    cache = _review_cache(key)
    judgements: list[Any] | None = None
    from spillebord.ai.review import Judgement

    if not no_cache and cache.is_file():
        try:
            judgements = [Judgement.from_json(j) for j in json.loads(cache.read_text(encoding="utf-8"))]
        except (OSError, ValueError, KeyError, TypeError):
            judgements = None  # a damaged cache is recomputed
    if judgements is None:
        todo = positions(game, table.seats, table.seed, table.options, table.log, seat)
        with _progress() as progress:
            task = progress.add_task(say(lang, "reviewing"), total=len(todo))
            judgements = review_game(
                game,
                todo,
                seat,
                hint_analyst(game),
                b,
                samples=samples,
                progress=lambda done, _total: progress.update(task, completed=done),
            )
        try:
            cache.parent.mkdir(parents=True, exist_ok=True)
            cache.write_text(json.dumps([j.to_json() for j in judgements]), encoding="utf-8")
        except OSError:
            pass  # a cache that cannot be written only costs time next run
    if as_json:
        print(
            json.dumps(
                {"seat": seat, "budget": budget_text(b), "decisions": [j.to_json() for j in judgements]}
            )
        )
        return
    players = list(record.get("players") or [])
    who = players[seat] if seat < len(players) and players[seat] else say(lang, "seat", n=seat)
    t = RichTable(title=say(lang, "review_title", title=game.title, who=who, budget=budget_text(b)))
    for col, right in (("#", True), ("played", False), ("best", False), ("chance", True), ("loss", True)):
        t.add_column("#" if col == "#" else say(lang, f"col_{col}"), justify="right" if right else "left")
    t.add_column("", justify="left")
    for j in judgements:
        if j.verdict == "forced":
            continue
        style = REVIEW_STYLE.get(j.verdict, "")
        verdict = say(lang, "v_" + j.verdict, default=j.verdict)
        chance = (
            f"{j.chance_played:.0%}"
            if j.verdict == "best"
            else f"{j.chance_played:.0%} → {j.chance_best:.0%}"
        )
        t.add_row(
            str(j.index + 1),
            j.played,
            "" if j.verdict == "best" else j.best,
            chance,
            "" if j.verdict == "best" else f"{j.loss:.0%}",
            f"[{style}]{verdict}[/]" if style else verdict,
        )
    console.print(t)
    counts = {v: sum(1 for j in judgements if j.verdict == v) for v in ("blunder", "mistake", "inaccuracy")}
    decided = sum(1 for j in judgements if j.verdict != "forced")
    console.print(
        say(
            lang,
            "review_summary",
            n=decided,
            b=counts["blunder"],
            m=counts["mistake"],
            i=counts["inaccuracy"],
        )
    )


# ---------------------------------------------------------------------------- bench


def bench_game(
    game: AnyGame,
    games: int,
    seed: int,
    seats: int | None = None,
    options: dict[str, Any] | None = None,
    progress: Any = None,
    task: Any = None,
) -> dict[str, Any]:
    """Play ``games`` random games; time the decisions (legal + choice + play).

    Rates are per CPU second of this process (``time.process_time``): one core's throughput,
    which a busy machine does not distort the way it distorts wall time (also reported).
    Also the µs per call of ``copy()``, ``determinize(seat)`` and ``view(seat)`` at mid-game
    positions (:func:`spillebord.testing.speed.call_costs`).
    """
    from spillebord.testing.speed import call_costs  # imports the test helpers: only when benching

    n = seats or game.seats.start
    opts = build_options(game.Options, options or {})
    decisions = 0
    truncated = 0
    per_game: list[float] = []
    clock = time.process_time
    total = 0.0
    wall0 = time.perf_counter()
    for i in range(games):
        rng = Rng(seed + i)
        state = game.new(n, seed + i, opts)
        t0 = clock()
        k = 0
        while state.to_act is not None:  # every game ends, or stops truncated at its bound
            state.play(rng.choice(state.legal()))
            k += 1
        truncated += state.truncated
        dt = clock() - t0
        total += dt
        per_game.append(dt)
        decisions += k
        if progress is not None:
            progress.advance(task)
    return {
        "games": games,
        "seats": n,
        "decisions": decisions,
        "seconds": round(total, 4),
        "wall_seconds": round(time.perf_counter() - wall0, 4),
        "games_per_s": round(games / total, 2) if total else None,
        "decisions_per_s": round(decisions / total, 1) if total else None,
        "decisions_per_game": round(decisions / games, 2) if games else None,
        "median_game_ms": round(statistics.median(per_game) * 1000, 3) if per_game else None,
        "truncated": truncated,
        **call_costs(game, n, opts, positions=min(games, 20), seed=seed),
    }


def bench_search(
    game: AnyGame, seats: int | None = None, options: dict[str, Any] | None = None
) -> dict[str, Any]:
    """ISMCTS iterations per CPU second at mid-game (default search options), the median over
    two mid-game positions (see :mod:`spillebord.ai.speed`)."""
    from spillebord.ai.speed import iterations_per_second

    n = seats or (4 if game.id == "partners" else game.seats.start)  # Partners: as the arena plays it
    rate = iterations_per_second(game, n, seeds=2, options=options)
    return {"ismcts_iterations_per_s": round(rate, 1), "ismcts_seats": n}


@app.command("bench")
def bench_cmd(
    game_ids: Annotated[list[str] | None, typer.Argument(help="Games to bench (default: all).")] = None,
    games: Annotated[int, typer.Option("--games", "-g", help="Random games per game.")] = 200,
    seed: Annotated[int, typer.Option("--seed", "-s", help="First seed (game i uses seed+i).")] = 0,
    seats: Annotated[
        int | None, typer.Option("--seats", "-n", help="Players (default: the minimum).")
    ] = None,
    quick: Annotated[bool, typer.Option("--quick", help="Use each game's short-game options.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object keyed by game id.")] = False,
    search: Annotated[
        bool,
        typer.Option("--search/--no-search", help="Also measure ISMCTS iterations per second at mid-game."),
    ] = True,
) -> None:
    """Play random games and report games/s, decisions/s and decisions per game, the cost of
    copy(), determinize() and view() in µs per call at mid-game positions, and the search bot's
    iterations per second at mid-game.

    Rates are per CPU second of one core (process time), so a busy machine does not skew them.
    """
    chosen = [_game(g) for g in (game_ids or registry.ids())]
    if games < 1:
        raise fail("--games must be at least 1")
    out: dict[str, Any] = {}
    with _progress() as progress:
        for g in chosen:
            task = progress.add_task(g.id, total=games)
            try:
                out[g.id] = bench_game(
                    g, games, seed, seats, dict(g.quick_options) if quick else None, progress, task
                )
                if search:
                    out[g.id].update(bench_search(g, seats, dict(g.quick_options) if quick else None))
            except SpillebordError as e:
                raise fail(f"{g.id}: {e}") from None
    if as_json:
        print(json.dumps(out))
        return
    t = RichTable(title=f"random play, {games} games each")
    cols = [
        "game",
        "seats",
        "games/s",
        "decisions/s",
        "decisions/game",
        "median game ms",
        "copy µs",
        "determinize µs",
        "view µs",
    ]
    if search:
        cols.append("ismcts it/s (mid-game)")
    for col in cols:
        t.add_column(col, justify="right" if col != "game" else "left")
    for gid, r in out.items():
        row = [
            gid,
            str(r["seats"]),
            f"{r['games_per_s']:,}",
            f"{r['decisions_per_s']:,}",
            f"{r['decisions_per_game']:,}",
            f"{r['median_game_ms']:,}",
            f"{r['copy_us']:,}",
            f"{r['determinize_us']:,}",
            f"{r['view_us']:,}",
        ]
        if search:
            at = f" ({r['ismcts_seats']} seats)" if r["ismcts_seats"] != r["seats"] else ""
            row.append(f"{r['ismcts_iterations_per_s']:,}{at}")
        t.add_row(*row)
    console.print(t)
    for gid, r in out.items():
        if r["truncated"]:
            console.print(
                f"[yellow]{gid}: {r['truncated']} of {r['games']} random games stopped at the bound of "
                f"{registry.get(gid).kind.max_decisions:,} decisions (try --quick)[/]"
            )


# ---------------------------------------------------------------------------- arena


def _arena_tables(report: Any) -> list[RichTable]:
    desc = report.description
    sides = desc["sides"]
    t = RichTable(
        title=f"{desc['game']}: {desc['seats']} seats, {sides} sides, "
        f"{len(report.results)} games (seats rotated, duplicate deals)"
    )
    for col, right in (
        ("bot", False),
        ("games", True),
        ("score", True),
        ("95% interval", True),
        ("mean game score", True),
        ("rating μ ± σ", True),
    ):
        t.add_column(col, justify="right" if right else "left")
    for b in sorted(report.bots.values(), key=lambda b: -b.mu):
        lo, hi = b.interval
        t.add_row(
            b.label,
            str(b.games),
            f"{b.score:.3f}",
            f"{lo:.3f}–{hi:.3f}",
            f"{b.mean_own_score:.1f}",
            f"{b.mu:.1f} ± {b.sigma:.1f}",
        )
    tables = [t]
    labels = list(report.bots)
    if len(labels) > 2:
        m = report.matrix()
        mt = RichTable(title="score of the row against the column")
        mt.add_column("")
        for b in labels:
            mt.add_column(b, justify="right")
        for a in labels:
            mt.add_row(a, *["—" if m[a][b] is None else f"{m[a][b]:.2f}" for b in labels])
        tables.append(mt)
    return tables


def _where(e: BaseException) -> str:
    """``Type: message (file:line)`` of an exception, at the frame that raised it (in a pool
    worker: the last frame of the worker's traceback, which the pool keeps as text)."""
    import re

    remote = getattr(e.__cause__, "tb", None)  # concurrent.futures' _RemoteTraceback
    frames = re.findall(r'File "([^"]+)", line (\d+)', remote) if isinstance(remote, str) else []
    if frames:
        name, line = Path(frames[-1][0]).name, frames[-1][1]
    else:
        tb = e.__traceback__
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        if tb is None:
            return f"{type(e).__name__}: {e}"
        name, line = Path(tb.tb_frame.f_code.co_filename).name, str(tb.tb_lineno)
    return f"{type(e).__name__}: {e} ({name}:{line})"


def _arena_kept(results: Path | None, games: int) -> str:
    """What a stopped arena run keeps, and how to go on."""
    if results is None:
        return "No game was kept: give --results FILE to keep each game as it ends and resume."
    kept = "1 game is" if games == 1 else f"{games} games are"
    return f"{kept} in {results}: the same command resumes."


@app.command("arena")
def arena_cmd(
    game_id: Annotated[str, typer.Argument(help="Game id (see `spillebord games`).")],
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            help="Bots, comma-separated, each NAME or NAME@BUDGET (greedy, heuristic@1s, ismcts@500it, "
            "club, master@2000it); every pair plays. 'best' is the game's strongest.",
        ),
    ] = "random,best",
    games: Annotated[int, typer.Option("--games", "-g", help="Games per pair of bots (whole deals).")] = 100,
    seats: Annotated[
        int | None, typer.Option("--seats", "-n", help="Players (default: the minimum).")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the deals and the bots.")] = 1,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="A rule option KEY=VALUE (repeatable).")
    ] = None,
    quick: Annotated[bool, typer.Option("--quick", help="Use the game's short-game options.")] = False,
    budget: Annotated[
        str | None, typer.Option("--budget", help="Thinking budget per decision for bots without @BUDGET.")
    ] = None,
    workers: Annotated[
        int | None, typer.Option("--workers", "-w", help="Worker processes (default: every core).")
    ] = None,
    ray: Annotated[
        bool, typer.Option("--ray", help="Run on Ray (a local Ray instance unless --ray-address).")
    ] = False,
    ray_address: Annotated[
        str | None,
        typer.Option("--ray-address", help="A Ray cluster address (or 'local' for Ray's local mode)."),
    ] = None,
    sequential: Annotated[
        bool, typer.Option("--sprt", help="Stop a pair as soon as 'the first is stronger' is decided.")
    ] = False,
    confidence: Annotated[
        float, typer.Option("--confidence", help="Confidence of the sequential test.")
    ] = 0.95,
    margin: Annotated[
        float, typer.Option("--margin", help="Score margin the sequential test looks for.")
    ] = 0.05,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as one JSON object.")] = False,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Write ratings.png and pairwise.png into this folder.")
    ] = None,
    results: Annotated[
        Path | None,
        typer.Option("--results", help="Append every game to this file; run again to resume after a stop."),
    ] = None,
    blind: Annotated[
        bool,
        typer.Option(
            "--blind",
            help="Show no running score, only how many games are done: the figures come when "
            "every game is played (a run whose rule was fixed before it, resumed across stops).",
        ),
    ] = False,
) -> None:
    """A tournament between bots: scores with 95% intervals, OpenSkill ratings, a pairwise matrix.

    Every bot decides from its own seat's knowledge only; seats rotate and every deal is played
    once with each bot on each side (duplicate play), so the luck of the deal cancels out.
    Replay any game with `spillebord replay RESULTS --game N`.
    """
    import os

    from spillebord.arena import ArenaError, BotSpec, Sequential, Tournament, parse_budget, run
    from spillebord.arena.files import is_blind

    game = _game(game_id)
    try:
        default_budget = parse_budget(budget) if budget else None
        specs = [BotSpec.parse(b, default_budget) for b in bots.split(",") if b.strip()]
        from spillebord.ai import best_agent

        specs = [BotSpec(best_agent(game), b.budget) if b.agent == "best" else b for b in specs]
        opts = dict(game.quick_options) if quick else {}
        opts.update(parse_pairs(option))
        if not 0.5 < confidence < 1:
            raise ArenaError("--confidence is between 0.5 and 1, e.g. 0.95")
        if not 0 < margin < 0.5:
            raise ArenaError("--margin is between 0 and 0.5, e.g. 0.05")
        n_workers = workers if workers is not None else (os.cpu_count() or 1)
        if n_workers < 1:
            raise ArenaError("--workers must be at least 1")
        t = Tournament(
            game.id,
            tuple(specs),
            games=games,
            seats=seats,
            options=opts,
            seed=seed,
            sequential=Sequential(confidence, margin) if sequential else None,
        )
        t.resolve()
    except SpillebordError as e:
        raise fail(str(e)) from None
    ray_target: str | bool | None = ray_address or (True if ray else None)
    with _progress() as progress:
        if results is not None and is_blind(results):
            blind = True  # a blind run stays blind when resumed
        shown = _ArenaProgress(progress, game.id, [b.label for b in specs], blind=blind)
        try:
            report = run(
                t,
                workers=n_workers,
                ray=ray_target,
                results_file=results,
                progress=shown.tick,
                on_game=shown.game,
                blind=blind,
            )
        except SpillebordError as e:
            raise fail(str(e)) from None
        except OSError as e:  # a results file that cannot be read or written
            raise fail(f"cannot use the results file {results}: {e.strerror or e}") from None
        except KeyboardInterrupt:
            err_console.print(f"[yellow]interrupted[/]: {_arena_kept(results, shown.games)}", soft_wrap=True)
            raise typer.Exit(130) from None
        except Exception as e:  # a bot's bug, most likely (a researcher's own agent): where, and what is kept
            raise fail(f"the run failed: {_where(e)}. {_arena_kept(results, shown.games)}", code=1) from None
    paths = []
    if plot is not None:
        from spillebord.arena.plot import write_plots

        paths = write_plots(report, plot)
    if as_json:
        out = report.to_json()
        out["plots"] = [str(p) for p in paths]
        print(json.dumps(out))
        return
    for table in _arena_tables(report):
        console.print(table)
    for p in report.pairs:
        won, split, lost = p.deals
        by_deals = p.deal_interval
        console.print(
            f"deals, {p.first} vs {p.second}: {won} won, {split} split, {lost} lost "
            "(a split deal went to the seat its cards and dice favoured)"
            + ("" if by_deals is None else f"; read deal by deal, 95% {by_deals[0]:.3f}–{by_deals[1]:.3f}")
        )
        if p.truncated:
            console.print(
                f"[yellow]{p.first} vs {p.second}: {p.truncated} of {p.games} games stopped at the "
                f"engine's length cap ({game.kind.max_decisions:,} decisions) and were scored there[/]"
            )
        if p.test is not None:
            verdict = {
                "H1": f"{p.first} is stronger than {p.second}",
                "H0": f"{p.first} is not stronger than {p.second} by {margin:g}",
                None: "undecided",
            }[p.test.verdict]
            when = f" after {p.stopped_after} deals" if p.stopped_after else ""
            console.print(f"sequential test, {p.first} vs {p.second}: {verdict}{when} (LLR {p.test.llr:.2f})")
    console.print(
        f"[dim]{report.played_now} games played now in {report.wall_seconds:.1f} s "
        f"({report.games_per_second:.1f} games/s, {report.workers} workers, {report.backend})[/]"
    )
    if results is not None:
        console.print(
            f"[dim]every game is in {results}; replay one with `spillebord replay {results} --game N`[/]"
        )
    for path in paths:
        console.print(f"picture: {path}")


_RESULTS_TABLE_WIDTH = 150
"""Terminals at least this wide get ``results`` as a table; narrower ones a block per row."""


@app.command("results")
def results_cmd(
    files: Annotated[
        list[Path], typer.Argument(help="Arena results files (spillebord arena … --results FILE).")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as one JSON object.")] = False,
    plot: Annotated[
        Path | None,
        typer.Option(help="Also draw the totals with their intervals, and each file's score, into this PNG."),
    ] = None,
    bar: Annotated[
        float | None,
        typer.Option(help="With --plot: mark the score a strength target asks for (e.g. 0.70)."),
    ] = None,
    unblind: Annotated[
        bool,
        typer.Option(
            "--unblind",
            help="Also show the score so far of blind runs under way (arena --blind), which "
            "are otherwise left out until their last game.",
        ),
    ] = False,
) -> None:
    """Sum arena results files: each file's score and the total per pair of bots, with 95% intervals.

    Runs of the same pair on other seeds (or resumed on other days) add up to one score with
    one interval: `spillebord results docs/arena-runs/touche180_s*.jsonl`. The score is the
    first bot's share of the games against the second (wins, and draws as shares), also by the
    seat it opened in, with the median CPU seconds a game. Duplicate play (each deal once per
    rotation of the seats) is read deal by deal: the deals the first bot won on balance, split
    and lost (a split deal was decided by its cards and dice, not by the bots), the score's
    95% interval read deal by deal (a deal's games are one draw: from 20 deals), and the mean
    margin of the game's own scores (points, ducats…) with its 95% interval, finer than wins
    where a deal's luck is large. `--plot strength.png --bar 0.7` draws the scores as a picture.
    A blind run (arena --blind) is left out until its last game, unless --unblind.
    """
    from spillebord.arena.files import tally_file, total

    if bar is not None and not 0.0 < bar < 1.0:
        raise fail(f"--bar is a score between 0 and 1, not {bar}")
    if bar is not None and plot is None:
        raise fail("--bar marks a score on the picture: give --plot FILE.png too")
    rows = []
    try:
        for f in files:
            rows += [(f, t) for t in tally_file(f)]
    except SpillebordError as e:
        raise fail(str(e)) from None
    withheld = [] if unblind else [(f, t) for f, t in rows if t.withheld]
    rows = [(f, t) for f, t in rows if unblind or not t.withheld]
    sums = total([t for _, t in rows])
    drawn = None
    if plot is not None and not rows:
        raise fail("nothing to draw: every file is of a blind run under way (--unblind draws them)")
    if plot is not None:
        from spillebord.arena.plot import write_scores_plot

        try:
            write_scores_plot([t for _, t in rows], sums, plot, bar)
        except OSError as e:
            raise fail(f"cannot write {plot}: {e.strerror or e}") from None
        drawn = str(plot)
    if as_json:
        print(
            json.dumps(
                {
                    "files": [{"file": str(f), **t.to_json()} for f, t in rows],
                    "withheld": [
                        {
                            "file": str(f),
                            "first": t.first,
                            "second": t.second,
                            "games": t.games,
                            "planned": t.planned,
                        }
                        for f, t in withheld
                    ],
                    "totals": [t.to_json() for t in sums],
                    **({"plot": drawn} if drawn else {}),
                }
            )
        )
        return

    def seats(t: Any) -> str:
        return ", ".join(f"{s}: {p / n:.3f} ({n})" for s, (p, n) in sorted(t.by_seat.items()))

    columns = (
        "file",
        "game",
        "bots",
        "games",
        "score",
        "95% interval",
        "by first seat",
        "deals won/split/lost",
        "95% by deals",
        "margin",
        "CPU s a game",
    )

    def cells(name: str, t: Any) -> list[str]:
        lo, hi = t.interval
        cpu = t.median_cpu
        margin = t.margin
        by_deals = t.deal_interval
        return [
            name,
            t.game,
            f"{t.first} vs {t.second}",
            str(t.games),
            f"{t.score:.3f}",
            f"{lo:.3f}–{hi:.3f}",
            seats(t),
            "/".join(map(str, t.deals)),
            "—" if by_deals is None else f"{by_deals[0]:.3f}–{by_deals[1]:.3f}",
            "—" if margin is None else f"{margin[0]:+.3g} ± {margin[1]:.3g}",
            "—" if cpu is None else f"{cpu:.1f}",
        ]

    lines = [(cells(f.name, t), False) for f, t in rows]
    if len(rows) > 1:
        lines += [(cells("total", t), True) for t in sums]
    title = "arena results: the first bot's score against the second"
    if lines and console.width >= _RESULTS_TABLE_WIDTH:
        table = RichTable(title=title)
        for col in columns:
            right = col not in ("file", "game", "bots", "by first seat")
            table.add_column(col, justify="right" if right else "left", overflow="fold")
        for row, bold in lines:
            table.add_row(*row, style="bold" if bold else None)
        console.print(table)
    elif lines:  # a narrow terminal: a block per row, so that no figure breaks in the middle
        console.print(f"[bold]{title}[/]")
        for row, bold in lines:
            head = f"{row[0]} · {row[1]} · {row[2]}"
            console.print(f"[bold]{escape(head)}[/]" if bold else escape(head))
            games, score, interval, by_seat, deals, by_deals, margin, cpu = row[3:]
            console.print(f"  {games} games, score {score}, 95% {interval}, read deal by deal {by_deals}")
            console.print(f"  deals won/split/lost {deals} · margin {margin} · {cpu} CPU s a game")
            console.print(f"  by first seat {by_seat}")
    for f, t in withheld:
        console.print(
            f"{escape(f.name)}: a blind run of {t.first} vs {t.second} under way, {t.games} of "
            f"{t.planned} games: its score comes with its last game (--unblind shows it now)",
            soft_wrap=True,
        )
    for f, t in rows:
        if t.games < t.planned:
            why = "stopped by its sequential test, or " if t.sequential else ""
            console.print(
                f"[dim]{escape(f.name)}: {t.games} of {t.planned} games of {t.first} vs {t.second}, "
                f"{why}a run under way or stopped: its score so far is not the run's result "
                "(the same arena command resumes it)[/]",
                soft_wrap=True,
            )
    for t in sums:
        if t.truncated:
            console.print(
                f"[dim]{t.game}, {t.first} vs {t.second}: {t.truncated} games stopped at the length cap[/]"
            )
    if drawn:
        console.print(f"picture: {drawn}")


@app.command("compare")
def compare_cmd(
    files: Annotated[
        list[str],
        typer.Argument(
            help="The first bot's results files, the word vs, then the second bot's: "
            "FIRST.jsonl… vs SECOND.jsonl…",
            metavar="FIRST… vs SECOND…",
        ),
    ],
    opponent: Annotated[
        str | None,
        typer.Option(help="The bot both runs played against (default: the one both name)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as one JSON object.")] = False,
    unblind: Annotated[
        bool, typer.Option("--unblind", help="Also read blind runs under way (arena --blind).")
    ] = False,
) -> None:
    """Two bots against the same opponent on the same deals, side by side, deal by deal.

    Two arena runs with the same --seed play the same deals: `spillebord compare
    touche720_s*.jsonl vs touche180_s*.jsonl` puts the Master's and the Expert's scores against
    the heuristic next to each other on every deal both played, and reads the difference with a
    95% interval deal by deal, in which the deals' luck cancels out. It compares two versions of
    one bot the same way. It measures both against a third bot, not against each other: the
    ladder's steps are head-to-head matches (spillebord arena GAME --bots level5,level4).
    """
    from spillebord.arena import ArenaError
    from spillebord.arena.files import compare, tally_file

    if files.count("vs") != 1:
        raise fail("give the first bot's files, the word vs, then the second bot's: FIRST… vs SECOND…")
    cut = files.index("vs")
    try:
        for f in files[:cut] + files[cut + 1 :]:
            for t in [] if unblind else tally_file(Path(f)):
                if t.withheld:
                    raise fail(
                        f"{f} is a blind run under way ({t.games} of {t.planned} games): "
                        "it is read after its last game (--unblind reads it now)"
                    )
        paired = compare([Path(f) for f in files[:cut]], [Path(f) for f in files[cut + 1 :]], opponent)
    except ArenaError as e:
        raise fail(str(e)) from None
    if as_json:
        print(json.dumps(paired.to_json()))
        return
    iv = paired.interval
    better, same, worse = paired.split
    console.print(
        f"[bold]{escape(paired.game)}: {escape(paired.first)} and {escape(paired.second)}, "
        f"each against {escape(paired.opponent)}, on the same deals[/]"
    )
    if paired.first == paired.second:  # two versions of one bot: say which run is which
        names = [", ".join(side) for side in (files[:cut], files[cut + 1 :])]
        console.print(f"  first: {escape(names[0])}; second: {escape(names[1])}")
    console.print(
        f"  {paired.deals} deal{'' if paired.deals == 1 else 's'} both runs played in full: "
        f"{escape(paired.first)} {paired.first_score:.3f}, "
        f"{escape(paired.second)} {paired.second_score:.3f}"
    )
    span = "" if iv is None else f", 95% {iv[0]:+.3f} to {iv[1]:+.3f} (read deal by deal)"
    console.print(f"  difference {paired.difference:+.3f}{span}")
    margin = paired.margin
    if margin is not None:
        console.print(
            f"  margin in the game's own score, {escape(paired.first)} less {escape(paired.second)}: "
            f"{margin[0]:+.3g} ± {margin[1]:.3g}"
        )
    console.print(f"  deals where {escape(paired.first)} did better/the same/worse: {better}/{same}/{worse}")
    console.print(f"  {escape(paired.verdict)}")


# ---------------------------------------------------------------------------- serve


@app.command("serve")
def serve_cmd(
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            help="Database URL (default: an SQLite file in your data directory; "
            "postgresql://… for PostgreSQL).",
        ),
    ] = None,
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", "-p", help="Port to listen on.")] = 8000,
    workers: Annotated[
        int, typer.Option("--workers", "-w", help="Worker processes (PostgreSQL for >1).")
    ] = 1,
    takeover_after: Annotated[
        float,
        typer.Option(
            "--takeover-after", help="Seconds without a connection before a bot takes a seat (0: never)."
        ),
    ] = 120.0,
    max_body: Annotated[
        int, typer.Option("--max-body", help="Largest HTTP request body in bytes (413 above).")
    ] = 64 * 1024,
    creates_per_minute: Annotated[
        int,
        typer.Option(
            "--creates-per-minute", help="Tables one client address may create per minute (429 above)."
        ),
    ] = 20,
    open_tables: Annotated[
        int,
        typer.Option(
            "--open-tables", help="Unfinished tables one client address may have created (429 above)."
        ),
    ] = 30,
    lobby_limit: Annotated[int, typer.Option("--lobby-limit", help="Most tables the lobby lists.")] = 200,
    idle_hours: Annotated[
        float,
        typer.Option(
            "--idle-hours",
            help="Close an unfinished table no person has been at for this many hours "
            "(its record is kept; 0: never).",
        ),
    ] = 24.0,
    bot_only_delay: Annotated[
        float,
        typer.Option(
            "--bot-only-delay", help="Least pause in seconds before each move of a table of bots only."
        ),
    ] = 0.5,
    bot_processes: Annotated[
        int,
        typer.Option(
            "--bot-processes",
            help="Worker processes the searching bots think in (-1: the machine's cores less one; "
            "0: threads in the server).",
        ),
    ] = -1,
    bot_budget: Annotated[
        float, typer.Option("--bot-budget", help="Most seconds a bot thinks about one move.")
    ] = 2.0,
    hint_seconds: Annotated[
        float, typer.Option("--hint-seconds", help="Most seconds one hint (the table's Hint button) thinks.")
    ] = 3.0,
    review_seconds: Annotated[
        float,
        typer.Option(
            "--review-seconds",
            help="Most seconds a game review thinks about one decision (with --set review_iterations=0; "
            "by default a review thinks 400 iterations a decision).",
        ),
    ] = 1.0,
    settings: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            metavar="NAME=VALUE",
            help="Any other server setting, e.g. --set review_jobs=2 --set posts_per_minute=600 "
            "(repeat for more; an unknown NAME lists them all).",
        ),
    ] = None,
) -> None:
    """Start the table server: lobby and live play in the browser at http://HOST:PORT/."""
    if not 0 <= port <= 65535:
        raise fail(f"--port must be 0–65535, not {port}")
    try:
        from spillebord.server import serve  # type: ignore[import-not-found,unused-ignore]
    except ImportError as e:
        raise fail(f"the server is not available in this installation: {e}") from None
    named: dict[str, Any] = {
        "takeover_after": takeover_after,
        "max_body": max_body,
        "creates_per_minute": creates_per_minute,
        "open_tables": open_tables,
        "lobby_limit": lobby_limit,
        "idle_hours": idle_hours,
        "bot_only_delay": bot_only_delay,
        "bot_processes": bot_processes,
        "bot_budget": bot_budget,
        "hint_seconds": hint_seconds,
        "review_seconds": review_seconds,
    }
    named.update(_server_settings(settings or []))  # --set NAME=VALUE has the last word
    try:
        serve(db=db, host=host, port=port, workers=workers, **named)
    except SpillebordError as e:
        raise fail(str(e)) from None


def _server_settings(pairs: list[str]) -> dict[str, Any]:
    """``--set NAME=VALUE`` pairs as typed server settings (the fields of the server's
    ``Config``), or one readable error."""
    import dataclasses

    from spillebord.server import Config  # type: ignore[import-not-found,unused-ignore]

    fields = {f.name: f for f in dataclasses.fields(Config)}
    defaults = Config()
    out: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or name not in fields:
            raise fail(f"--set {pair!r}: expected NAME=VALUE with NAME one of: {', '.join(sorted(fields))}")
        kind = type(getattr(defaults, name))
        try:
            if kind is bool:
                if value.lower() not in ("1", "0", "true", "false", "yes", "no", "on", "off"):
                    raise ValueError(value)
                out[name] = value.lower() in ("1", "true", "yes", "on")
            else:
                out[name] = kind(value)
        except ValueError:
            raise fail(f"--set {name}: {value!r} is not a valid {kind.__name__}") from None
    return out


# ---------------------------------------------------------------------------- verify


@app.command("verify")
def verify_cmd(
    record: Annotated[
        Path, typer.Argument(help="A finished game's record (JSON) from the server's /api/tables/ID/record.")
    ],
    commitment: Annotated[
        str | None,
        typer.Option(
            "--commitment", help="The commitment the table showed when it was created, to compare with."
        ),
    ] = None,
) -> None:
    """Check that a server's deal was fixed before the first action: the record's seed and salt
    hash to its commitment (sha256 of "SEED:SALT"), and its actions replay to its result."""
    from spillebord.tables import RecordError, verify_record

    try:
        data = json.loads(record.read_text(encoding="utf-8"))
    except OSError as e:
        raise fail(f"cannot read {record}: {e.strerror}") from None
    except ValueError as e:
        raise fail(f"{record} is not JSON: {e}") from None
    try:
        summary = verify_record(data, commitment)
    except RecordError as e:
        raise fail(f"not verified: {e}", code=1) from None
    console.print(f"[green]verified[/]: {summary}")


def main() -> None:
    try:
        app()
    except SpillebordError as e:  # the last line of defence: no tracebacks for our own errors
        err_console.print(f"[bold red]error:[/] {e}")
        sys.exit(2)
    except KeyboardInterrupt:
        err_console.print("[yellow]interrupted[/]")
        sys.exit(130)


if __name__ == "__main__":
    main()
