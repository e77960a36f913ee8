"""One package per game. Each exposes its :class:`~spillebord.core.Game` as ``GAME``."""
