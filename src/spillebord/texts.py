"""The texts a game ships beside its engine (``games/<id>/texts.json``): event templates,
option labels, end-summary rows and terms in English, Danish, Swedish and Norwegian. The web
client reads them through the server; the terminal reads the English ones here."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from spillebord.core import registry


@lru_cache(maxsize=16)
def game_texts(game_id: str) -> dict[str, Any]:
    """The ``texts.json`` shipped in the game's package, or ``{}``."""
    import importlib.resources
    import json

    game = registry.get(game_id)
    pkg = type(game).__module__.rsplit(".", 1)[0]
    try:
        res = importlib.resources.files(pkg) / "texts.json"
        text = res.read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError, TypeError):
        return {}
    data = json.loads(text)
    return data if isinstance(data, dict) else {}


def summary_label(game_id: str, key: str, lang: str = "en") -> str:
    """What an end-summary row is called (``best_series`` → "Longest series"), else its key
    in words."""
    entry = game_texts(game_id).get("summary", {}).get(key)
    if isinstance(entry, dict) and isinstance(entry.get(lang), str):
        return str(entry[lang])
    return key.replace("_", " ")


__all__ = ["game_texts", "summary_label"]
