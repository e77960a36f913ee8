"""What the server's analysis keeps per table: the hints setting and finished reviews.

One small key–value table beside the others (:meth:`~.db.Store.create_all` creates it with
them): ``(table, key) → text``. Keys in use: ``hints`` (``on``/``off``) and
``review:SEAT:ENGINE:BUDGET`` (the JSON of a finished review, valid for ever: a finished
game's record never changes).
"""

from __future__ import annotations

from typing import cast

from sqlalchemy import ForeignKey, String, Table, Text, delete, insert, select
from sqlalchemy.orm import Mapped, mapped_column

from .db import Base, Store


class AnalysisRow(Base):
    __tablename__ = "sb_analysis"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("sb_tables.id", ondelete="CASCADE"), primary_key=True
    )
    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


T_ANALYSIS = cast(Table, AnalysisRow.__table__)


class AnalysisStore:
    """Reads and writes of :class:`AnalysisRow` (synchronous: the server calls them off its loop)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def get(self, table_id: str, key: str) -> str | None:
        with self.store._begin() as c:
            r = c.execute(
                select(T_ANALYSIS.c.value).where(T_ANALYSIS.c.table_id == table_id, T_ANALYSIS.c.key == key)
            ).first()
            return str(r[0]) if r is not None else None

    def put(self, table_id: str, key: str, value: str) -> None:
        with self.store._begin() as c:
            c.execute(delete(T_ANALYSIS).where(T_ANALYSIS.c.table_id == table_id, T_ANALYSIS.c.key == key))
            c.execute(insert(T_ANALYSIS).values(table_id=table_id, key=key, value=value))


__all__ = ["AnalysisRow", "AnalysisStore"]
