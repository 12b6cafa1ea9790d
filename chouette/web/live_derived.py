"""What the live table derives from one state, remembered: the decisions, the seats in words
and the shared drawing of a state (``per_state``), and each table's latest log lines
(``recent_lines``, read only past what is kept: the log is only ever appended to).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask_babel import get_locale
from sqlalchemy import select

from chouette import caches
from chouette.extensions import db
from chouette.models import Member, TableEvent
from chouette.services import identity
from chouette.table import TableState, match_rules
from chouette.web import log_lines

RECENT = 12  # log lines shown under the table


#: What a table's page derives from one state alone (its legal decisions, the latest log
#: lines, the seats in words, the shared drawing), by the state's identity: after a push,
#: every phone at the table fetches the same state, and only the first draws these. An entry
#: holds its state, so no other state can have its ``id`` while the entry lives.
PER_STATE = caches.declare(
    "live.per_state", 512,
    "(id(state), what, language) -> (state, what the page derives from that state)")
#: Each table's latest log lines said in words: (the seq they were read up to, the lines). A
#: command appends one event, so only what came after is read and said (``recent_lines``).
RECENT_LINES = caches.declare(
    "live.recent_lines", 512,
    "(table id, renames generation, language) -> (seq read up to, the latest log lines)")


def per_state(state: TableState, name: str, compute: Callable[[], Any]) -> Any:
    """``compute()``, or what it gave for this very state (and language) before; made once
    however many phones ask at the same moment."""
    key = (id(state), name, str(get_locale()))
    return caches.cache(PER_STATE).get_or_make(key, lambda: (state, compute()))[1]


def recent_lines(table_id: int, seq: int, generation: int,
            players: tuple[str, str] | None = None) -> list[dict[str, Any]]:
    """The latest log lines up to ``seq``, newest first, each said in words, with who recorded
    them (``generation``: the club's renames, ``commands.TablePlay.generation``); ``players``:
    a match's two players, its lines said with their names (``match_players``).

    The log is only ever appended to, so the lines up to a seq never change: the ones read
    for an earlier seq are kept, and only the events after it are read and said."""
    kept = caches.cache(RECENT_LINES)
    key = (table_id, generation, str(get_locale()))
    found = kept.get(key)
    if found is not None and found[0] == seq:
        return found[1]
    since, known = (found if found is not None and found[0] <= seq else (0, []))
    query = (select(TableEvent, Member.name).outerjoin(Member, TableEvent.actor_id == Member.id)
             .where(TableEvent.table_id == table_id, TableEvent.seq <= seq, TableEvent.seq > since)
             .order_by(TableEvent.seq.desc()).limit(RECENT))
    # A renamed member: their name now.
    names = identity.relabels_of([table_id])[table_id] if generation else {}
    lines = [{"seq": e.seq, "type": e.type, "text": log_lines.describe(identity.relabel(e.as_dict(), names), players),
              "who": who, "at": e.at} for e, who in db.session.execute(query)]
    lines = (lines + known)[:RECENT]
    if found is None or found[0] <= seq:
        kept.put(key, (seq, lines))
    return lines


def match_players(state: TableState) -> tuple[str, str] | None:
    """A match's two players once seated, first (side 0) first; None at a chouette."""
    return match_rules.players(state) if state.settings.is_match else None
