"""Each game of a table as the night's ledger shows it, stored with the events that change it.

A game line is one game's seats, cubes, result, and each player's points and cents (the
finished games in full, the game in progress what it has settled so far). A command writes
the lines of the games it touched in the transaction that appends its event, and moves the
table's mark (``game_line_mark``) to the new seq; an import writes every line with its log.
The ledger page reads the rows of the tables whose mark is at their last seq, so it folds no
log (issue 12, finding 6). A table written without lines (an older database, a builder
writing logs directly) has its mark behind its log: the next page that reads it folds it
once (through the commands' cache) and stores its lines.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import SQLAlchemyError

from chouette.extensions import db
from chouette.models import ChouetteTable, GameLineRow, GameLinesMark, TableEvent
from chouette.services.base import writing
from chouette.services.points import to_json
from chouette.standings import games_money, touched_games
from chouette.table import TableState

#: The format of the stored lines; a mark of another version is folded again (bump it when
#: the line's shape, or what the rules make of a log, changes).
LINES_VERSION = 3  # 2: a deal's points count, a fraction as text ("3/2": services.points);
#                   3: every captain of the game, acting ones included ("captains")

#: Game number -> its line (JSON-ready), or None: that game no longer exists (an undo).
Lines = dict[int, dict[str, Any] | None]

log = logging.getLogger(__name__)


def _line(state: TableState, number: int, money: Mapping[int, Any]) -> dict[str, Any] | None:
    """Game ``number``'s line in ``state``, or None when the state has no such game."""
    found = money.get(number)
    points = {player: to_json(value) for player, value in found.points.items()} if found else {}
    cents = dict(found.cents) if found else {}
    if 1 <= number <= len(state.games):
        record = state.games[number - 1]
        return {
            "box": record.box, "partner": record.partner, "captain": record.captain,
            "captains": list(record.captains),
            "winner": record.winner, "kind": record.kind, "final": True,
            "voided": record.voided, "correction": record.correction,
            "cubes": [[c.member, c.value, c.owner, c.status] for c in record.cubes],
            "extras": [list(extra) for extra in record.extras],
            "points": points, "cents": cents,
        }
    game = state.game
    if game is None or game.number != number:
        return None
    return {
        "box": state.box, "partner": state.partner, "captain": game.seat_captain,
        "captains": list(dict.fromkeys([game.members[0], game.acting_captain])),
        "winner": None, "kind": None, "final": False, "voided": False, "correction": None,
        "cubes": [[c.member, c.value, c.owner, c.status] for c in game.cubes.values()],
        "extras": [], "points": points, "cents": cents,
    }


def lines_of(state: TableState, numbers: Iterable[int] | None = None) -> Lines:
    """The lines of the games ``numbers`` in ``state`` (every game, and the one in progress,
    when None): a game the state does not hold maps to None."""
    if numbers is None:
        wanted = set(range(1, len(state.games) + 1))
        if state.game is not None:
            wanted.add(state.game.number)
    else:
        wanted = set(numbers)
    money = {game.number: game for game in games_money(state, wanted)}
    return {number: _line(state, number, money) for number in sorted(wanted)}


def changed_lines(before: TableState, after: TableState) -> Lines:
    """The lines an event taking ``before`` to ``after`` changes (the game in progress; a
    finished game; every game an undo or a correction rebuilt). A line the event leaves as it
    was is left out (most rolls and moves change none): the rows stored for ``before`` stand."""
    touched = touched_games(before, after)
    was, now = lines_of(before, touched), lines_of(after, touched)
    return {number: line for number, line in now.items() if line != was[number]}


def write_lines(table_id: int, expected_seq: int, seq: int, settings: Mapping[str, Any],
                lines: Lines) -> bool:
    """Inside the transaction that appends events ``expected_seq + 1 .. seq``: store their
    ``lines`` and move the table's mark to ``seq``, if the mark was at ``expected_seq``
    (else the stored lines are already behind the log and stay so until refolded).
    Returns whether the lines were written."""
    if expected_seq == 0:
        # The table's first events: no mark yet (a page never marks an empty table).
        db.session.execute(insert(GameLinesMark).values(
            table_id=table_id, seq=seq, version=LINES_VERSION, settings=dict(settings)))
    else:
        moved = db.session.execute(
            update(GameLinesMark)
            .where(GameLinesMark.table_id == table_id, GameLinesMark.seq == expected_seq,
                   GameLinesMark.version == LINES_VERSION)
            .values(seq=seq)
            .execution_options(synchronize_session=False))
        if moved.rowcount != 1:  # type: ignore[attr-defined]
            return False
    _put(table_id, lines)
    return True


def _put(table_id: int, lines: Lines) -> None:
    """Replace the rows of ``lines``' games (a None line: the row goes)."""
    if lines:
        db.session.execute(delete(GameLineRow).where(GameLineRow.table_id == table_id,
                                                     GameLineRow.number.in_(list(lines)))
                           .execution_options(synchronize_session=False))
    rows = [{"table_id": table_id, "number": number, "line": line}
            for number, line in sorted(lines.items()) if line is not None]
    if rows:
        db.session.execute(insert(GameLineRow), rows)


def insert_lines(table_id: int, seq: int, settings: Mapping[str, Any], lines: Lines) -> None:
    """Store a new table's every line at ``seq`` (an import), inside its transaction."""
    db.session.execute(insert(GameLinesMark).values(
        table_id=table_id, seq=seq, version=LINES_VERSION, settings=dict(settings)))
    rows = [{"table_id": table_id, "number": number, "line": line}
            for number, line in sorted(lines.items()) if line is not None]
    if rows:
        db.session.execute(insert(GameLineRow), rows)


def stored_lines(tables: Iterable[ChouetteTable]
                 ) -> tuple[dict[int, dict[int, dict[str, Any]]], dict[int, int]]:
    """The stored lines of the tables whose mark is at their last seq (table id -> game
    number -> line; a table without events has none), and the last seq of the others (to
    fold: table id -> seq)."""
    tables = list(tables)
    ids = [table.id for table in tables]
    if not ids:
        return {}, {}
    seqs = dict(db.session.execute(
        select(TableEvent.table_id, func.max(TableEvent.seq))
        .where(TableEvent.table_id.in_(ids)).group_by(TableEvent.table_id)).all())
    marks = {table_id: (seq, version, settings) for table_id, seq, version, settings in db.session.execute(
        select(GameLinesMark.table_id, GameLinesMark.seq, GameLinesMark.version,
               GameLinesMark.settings).where(GameLinesMark.table_id.in_(ids)))}
    found: dict[int, dict[int, dict[str, Any]]] = {}
    stale: dict[int, int] = {}
    for table in tables:
        seq = seqs.get(table.id, 0)
        if seq == 0 or marks.get(table.id) == (seq, LINES_VERSION, dict(table.settings)):
            found[table.id] = {}
        else:
            stale[table.id] = seq
    fresh = [table_id for table_id in found if seqs.get(table_id, 0)]
    if fresh:
        for table_id, number, line in db.session.execute(
            select(GameLineRow.table_id, GameLineRow.number, GameLineRow.line)
            .where(GameLineRow.table_id.in_(fresh))
        ):
            found[table_id][number] = line
    return found, stale


def store_lines(folded: Mapping[int, tuple[int, Mapping[str, Any], Lines]]) -> None:
    """Store the lines a page folded (table id -> (seq, settings, every line)), after the
    page's read: one short ``writing()`` of its own replaces each table's rows, for the
    tables whose log is still at that seq. A failure (the database busy) is logged: the
    lines are folded again next time."""
    if not folded:
        return
    try:
        with writing():
            for table_id, (seq, settings, lines) in sorted(folded.items()):
                last = db.session.scalar(select(func.max(TableEvent.seq))
                                         .where(TableEvent.table_id == table_id)) or 0
                if last != seq:
                    continue  # the log moved meanwhile: the next page folds it again
                db.session.execute(delete(GameLinesMark).where(GameLinesMark.table_id == table_id))
                db.session.execute(delete(GameLineRow).where(GameLineRow.table_id == table_id))
                insert_lines(table_id, seq, settings, lines)
    except SQLAlchemyError as error:
        log.warning("game lines not stored (they will be folded again): %s", error)
