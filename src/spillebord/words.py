"""The terminal's own words (prompts, messages, table headings of ``play``, ``replay`` and
``review``) in English, Danish, Swedish and Norwegian.

A game's own texts (events, action labels, board words) are in :mod:`spillebord.texts`; these
are the command line's. The wording follows the web's for the same things (``web/i18n.js``:
the level names, "Point", "Delt sejr"; ``web/hint-texts.js``: tip, bommert, fejl,
unøjagtighed), so the two front ends agree. The English strings are the terminal's
texts as they always were. What a person types (numbers, ``q``, ``?``, ``/``, ``<``) and the
engines' notation stay the same in every language.
"""

from __future__ import annotations

from typing import Any

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "help": (
            "a number plays it · type part of an action to narrow the list · / shows all · ? hint · q quits"
        ),
        "no_option": "no option {k} (the options are 1–{n})",
        "type_number": "type a number from the list or an action's text",
        "narrowed": "(narrowed by '{f}': / shows all)",
        "groups": "groups: ",
        "page": "{a}–{b} of {n} · Enter: more · <: back · type part of an action to narrow · / all",
        "seat": "seat {n}",
        "players_head": "{title}, {n} players: ",
        "prompt": " — number, action, or part of one to narrow: ",
        "hints_off": "hints are off for this game (--no-hints)",
        "thinking": "thinking about a hint…",
        "hint": "hint: ",
        "clocks": "clocks ",
        "out_of_time": "seat {n} is out of time: {best} plays it from now on",
        "unfinished": "game left unfinished; its record goes to {path}",
        "continue": "continue it with: spillebord play {game} --resume {path}",
        "saved": "record saved to {path}",
        "decisions": "{n} decisions",
        "final": "{title}: final result",
        "truncated": " (stopped at the bound of {n} decisions, ranked by score)",
        "score": "score",
        "outcome": "outcome",
        "won": "won",
        "lost": "lost",
        "shared": "shared win ({o})",
        "after": "after {k}/{n} actions",
        "replay_prompt": "[Enter] next, number jumps, b back, q quits: ",
        "reviewing": "reviewing",
        "review_title": "{title}: review of {who}'s decisions ({budget} a decision)",
        "col_played": "played",
        "col_best": "best",
        "col_chance": "chance",
        "col_loss": "loss",
        "v_best": "best",
        "v_good": "good",
        "v_inaccuracy": "inaccuracy",
        "v_mistake": "mistake",
        "v_blunder": "blunder",
        "v_forced": "forced",
        "review_summary": "{n} decisions: blunders {b}, mistakes {m}, inaccuracies {i}.",
        "level1": "Beginner",
        "level2": "Casual",
        "level3": "Club",
        "level4": "Expert",
        "level5": "Master",
    },
    "da": {
        "help": (
            "et nummer spiller det · "
            "skriv en del af et træk for at indsnævre listen · / viser alle · ? tip · q afslutter"
        ),
        "no_option": "intet valg {k} (valgene er 1–{n})",
        "type_number": "skriv et nummer fra listen eller et træks tekst",
        "narrowed": "(indsnævret efter '{f}': / viser alle)",
        "groups": "grupper: ",
        "page": (
            "{a}–{b} af {n} · Enter: flere · <: tilbage · skriv en del af et træk for at indsnævre · / alle"
        ),
        "seat": "plads {n}",
        "players_head": "{title}, {n} spillere: ",
        "prompt": " — din tur: et nummer, et træk eller en del af et for at indsnævre: ",
        "hints_off": "tip er slået fra i dette spil (--no-hints)",
        "thinking": "tænker over et tip…",
        "hint": "tip: ",
        "clocks": "ure ",
        "out_of_time": "plads {n} har ikke mere tid: {best} spiller den herfra",
        "unfinished": "spillet er ikke færdigt; det gemmes i {path}",
        "continue": "fortsæt det med: spillebord play {game} --resume {path}",
        "saved": "spillet er gemt i {path}",
        "decisions": "{n} beslutninger",
        "final": "{title}: slutresultat",
        "truncated": " (stoppet ved grænsen på {n} beslutninger, rangeret efter point)",
        "score": "point",
        "outcome": "udfald",
        "won": "vandt",
        "lost": "tabte",
        "shared": "delt sejr ({o})",
        "after": "efter {k}/{n} træk",
        "replay_prompt": "[Enter] næste, et nummer springer, b tilbage, q afslutter: ",
        "reviewing": "gennemgår",
        "review_title": "{title}: gennemgang af {who}s beslutninger ({budget} pr. beslutning)",
        "col_played": "spillet",
        "col_best": "bedst",
        "col_chance": "chance",
        "col_loss": "tab",
        "v_best": "bedst",
        "v_good": "godt",
        "v_inaccuracy": "unøjagtighed",
        "v_mistake": "fejl",
        "v_blunder": "bommert",
        "v_forced": "tvunget",
        "review_summary": "Bommerter {b}, fejl {m}, unøjagtigheder {i} i {n} beslutninger.",
        "level1": "Begynder",
        "level2": "Hobbyspiller",
        "level3": "Klubspiller",
        "level4": "Ekspert",
        "level5": "Mester",
    },
    "sv": {
        "help": (
            "ett nummer spelar det · "
            "skriv en del av ett drag för att begränsa listan · / visar alla · ? tips · q avslutar"
        ),
        "no_option": "inget val {k} (valen är 1–{n})",
        "type_number": "skriv ett nummer från listan eller ett drags text",
        "narrowed": "(begränsat till '{f}': / visar alla)",
        "groups": "grupper: ",
        "page": (
            "{a}–{b} av {n} · Enter: fler · <: tillbaka · skriv en del av ett drag för att begränsa · / alla"
        ),
        "seat": "plats {n}",
        "players_head": "{title}, {n} spelare: ",
        "prompt": " — din tur: ett nummer, ett drag eller en del av ett för att begränsa: ",
        "hints_off": "tips är avslagna i det här partiet (--no-hints)",
        "thinking": "funderar på ett tips…",
        "hint": "tips: ",
        "clocks": "klockor ",
        "out_of_time": "plats {n} har ingen tid kvar: {best} spelar den härifrån",
        "unfinished": "partiet är inte färdigt; det sparas i {path}",
        "continue": "fortsätt det med: spillebord play {game} --resume {path}",
        "saved": "partiet är sparat i {path}",
        "decisions": "{n} beslut",
        "final": "{title}: slutresultat",
        "truncated": " (stoppat vid gränsen på {n} beslut, rangordnat efter poäng)",
        "score": "poäng",
        "outcome": "utfall",
        "won": "vann",
        "lost": "förlorade",
        "shared": "delad seger ({o})",
        "after": "efter {k}/{n} drag",
        "replay_prompt": "[Enter] nästa, ett nummer hoppar, b tillbaka, q avslutar: ",
        "reviewing": "går igenom",
        "review_title": "{title}: genomgång av {who}s beslut ({budget} per beslut)",
        "col_played": "spelat",
        "col_best": "bäst",
        "col_chance": "chans",
        "col_loss": "förlust",
        "v_best": "bäst",
        "v_good": "bra",
        "v_inaccuracy": "onoggrannhet",
        "v_mistake": "misstag",
        "v_blunder": "groda",
        "v_forced": "tvunget",
        "review_summary": "Grodor {b}, misstag {m}, onoggrannheter {i} på {n} beslut.",
        "level1": "Nybörjare",
        "level2": "Hobbyspelare",
        "level3": "Klubbspelare",
        "level4": "Expert",
        "level5": "Mästare",
    },
    "no": {
        "help": (
            "et nummer spiller det · "
            "skriv en del av et trekk for å snevre inn listen · / viser alle · ? tips · q avslutter"
        ),
        "no_option": "intet valg {k} (valgene er 1–{n})",
        "type_number": "skriv et nummer fra listen eller teksten til et trekk",
        "narrowed": "(snevret inn til '{f}': / viser alle)",
        "groups": "grupper: ",
        "page": (
            "{a}–{b} av {n} · Enter: flere · <: tilbake · skriv en del av et trekk for å snevre inn · / alle"
        ),
        "seat": "plass {n}",
        "players_head": "{title}, {n} spillere: ",
        "prompt": " — din tur: et nummer, et trekk eller en del av et for å snevre inn: ",
        "hints_off": "tips er slått av i dette spillet (--no-hints)",
        "thinking": "tenker på et tips…",
        "hint": "tips: ",
        "clocks": "klokker ",
        "out_of_time": "plass {n} er tom for tid: {best} spiller den herfra",
        "unfinished": "spillet er ikke ferdig; det lagres i {path}",
        "continue": "fortsett det med: spillebord play {game} --resume {path}",
        "saved": "spillet er lagret i {path}",
        "decisions": "{n} avgjørelser",
        "final": "{title}: sluttresultat",
        "truncated": " (stoppet ved grensen på {n} avgjørelser, rangert etter poeng)",
        "score": "poeng",
        "outcome": "utfall",
        "won": "vant",
        "lost": "tapte",
        "shared": "delt seier ({o})",
        "after": "etter {k}/{n} trekk",
        "replay_prompt": "[Enter] neste, et nummer hopper, b tilbake, q avslutter: ",
        "reviewing": "går gjennom",
        "review_title": "{title}: gjennomgang av avgjørelsene til {who} ({budget} per avgjørelse)",
        "col_played": "spilt",
        "col_best": "best",
        "col_chance": "sjanse",
        "col_loss": "tap",
        "v_best": "best",
        "v_good": "bra",
        "v_inaccuracy": "unøyaktighet",
        "v_mistake": "feil",
        "v_blunder": "tabbe",
        "v_forced": "tvunget",
        "review_summary": "Tabber {b}, feil {m}, unøyaktigheter {i} i {n} avgjørelser.",
        "level1": "Nybegynner",
        "level2": "Hobbyspiller",
        "level3": "Klubbspiller",
        "level4": "Ekspert",
        "level5": "Mester",
    },
}


def say(lang: str, key: str, default: str | None = None, **fields: Any) -> str:
    """The terminal's text ``key`` in ``lang`` (English where it has none, else ``default``),
    filled with ``fields``."""
    text = WORDS.get(lang, {}).get(key) or WORDS["en"].get(key) or default
    if text is None:
        raise KeyError(key)
    return text.format(**fields) if fields else text


__all__ = ["WORDS", "say"]
