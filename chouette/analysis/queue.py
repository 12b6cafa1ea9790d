"""The analysis queue, kept in the app's own database (issue 27).

Why the database and no job library: the queue is one row per table (``AnalysisRequest``),
written in the very transaction that appends the event that finished a game (or an undo, a
correction): it cannot be lost between the table and a broker, and it needs no other server.
PostgreSQL's ``FOR UPDATE SKIP LOCKED`` lets several workers on several machines take different
tables; on SQLite (one machine) a conditional ``UPDATE`` claims a row. A claim is a lease: a
worker that dies loses it when the lease runs out, and the table is taken again. Each game's
results are written in one transaction under a unique key (table, game): no double rows.

A claimed table is judged game by game: a game whose decisions are unchanged since its
stored analysis is skipped (``fingerprint``), a changed one (undo, correction) judged again, a
game that is no longer a finished board game (voided, undone) deleted.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from typing import Any

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError

from chouette.analysis import runner
from chouette.analysis.decisions import Decision, game_decisions
from chouette.analysis.judge import judge, request_for, totals
from chouette.extensions import db
from chouette.models import AnalysisRequest, ChouetteTable, GameAnalysis, PlayerAnalysis, TableEvent, utcnow
from chouette.services import analysis, identity
from chouette.services.tables import queue_analysis
from chouette.table import Settings

log = logging.getLogger(__name__)
#: Seconds a claim lasts; renewed before each game.
LEASE = 300
#: Seconds before a table whose analysis failed is tried again.
RETRY = 600


#: Queue a table at a seq, in the caller's transaction (``services.tables.append_events`` calls
#: it with the event that finished a game, an undo or a correction).
request = queue_analysis


def queue_all() -> int:
    """Queue every table that has events (an imported night, games from before the analysis was
    turned on): the worker skips the games already judged as they are. How many were queued."""
    waiting = set(db.session.scalars(select(AnalysisRequest.table_id)))
    last = db.session.execute(select(TableEvent.table_id, func.max(TableEvent.seq))
                              .group_by(TableEvent.table_id)).all()
    count = 0
    for table_id, seq in last:
        if table_id not in waiting:
            request(table_id, seq)
            count += 1
    db.session.commit()
    return count


def claim(worker: str, lease: float = LEASE) -> tuple[int, int] | None:
    """Take one queued table nobody holds: (table id, seq), or None when none waits."""
    now = utcnow()
    free = or_(AnalysisRequest.lease_until.is_(None), AnalysisRequest.lease_until < now)
    query = select(AnalysisRequest.table_id, AnalysisRequest.seq).where(free).order_by(
        AnalysisRequest.requested_at).limit(1)
    if db.session.get_bind().dialect.name == "postgresql":
        query = query.with_for_update(skip_locked=True)
    try:
        found = db.session.execute(query).first()
        if found is None:
            db.session.rollback()
            return None
        # The claim itself: only one worker's UPDATE finds the row still free.
        taken = db.session.execute(
            update(AnalysisRequest).where(AnalysisRequest.table_id == found.table_id, free)
            .values(lease_until=now + timedelta(seconds=lease), worker=worker[:80],
                    attempts=AnalysisRequest.attempts + 1))
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    return (found.table_id, found.seq) if taken.rowcount == 1 else None  # type: ignore[attr-defined]


def fingerprint(decisions: list[Decision]) -> str:
    """What a game's analysis judged: its decisions, as a digest (the cubes drawn beside a
    decision are no part of what gnubg judges)."""
    text = json.dumps([{k: v for k, v in d.to_dict().items() if k != "cubes"} for d in decisions],
                      sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


Run = Callable[[dict[str, Any]], dict[str, Any]]


def analyse_table(table_id: int, claimed_seq: int, worker: str, *, run: Run = runner.run,
                  lease: float = LEASE, on_game: Callable[[int], None] | None = None,
                  before_game: Callable[[], object] | None = None) -> int:
    """Judge the table's finished board games that need it, one game per transaction; then
    drop the table's request (or free it when the log moved on meanwhile). The games judged.
    ``before_game`` is called before each game is judged (the worker waits there for a lull
    at the tables, ``lull.Lull.wait``), before the claim is renewed.

    Raises:
        AnalysisUnavailable, AnalysisFailed: gnubg is missing or failed (the request waits).
    """
    table = db.session.get(ChouetteTable, table_id)
    if table is None:
        _finish(table_id, claimed_seq)
        return 0
    night_id = table.night_id
    settings = Settings.from_dict(table.settings).to_dict()
    # A renamed member's old labels read as their current name (``identity.relabels_of``).
    names = identity.relabels_of([table_id])[table_id]
    events = identity.relabel_log((e.as_dict() for e in db.session.scalars(
        select(TableEvent).where(TableEvent.table_id == table_id).order_by(TableEvent.seq))), names)
    members = {names.get(name, name): member for name, member in identity.seat_members(table_id).items()}
    found = game_decisions(settings, events)
    stored = dict(db.session.execute(select(GameAnalysis.number, GameAnalysis.fingerprint)
                                     .where(GameAnalysis.table_id == table_id)).all())
    db.session.rollback()
    judged = 0
    for number, decisions in sorted(found.items()):
        mark = fingerprint(decisions)
        if stored.get(number) == mark:
            continue
        if before_game is not None:
            before_game()
        _renew(table_id, worker, lease)
        if on_game is not None:
            on_game(number)
        payload, named = request_for(settings, events, [number])
        verdict = judge(named, run(payload))[number]
        _store(table_id, night_id, number, mark, verdict, members)
        judged += 1
    gone = set(stored) - set(found)
    if gone:
        db.session.execute(delete(GameAnalysis).where(GameAnalysis.table_id == table_id,
                                                      GameAnalysis.number.in_(gone)))
        db.session.commit()
    _finish(table_id, claimed_seq)
    return judged


def _renew(table_id: int, worker: str, lease: float) -> None:
    db.session.execute(update(AnalysisRequest).where(AnalysisRequest.table_id == table_id)
                       .values(lease_until=utcnow() + timedelta(seconds=lease), worker=worker[:80]))
    db.session.commit()


def _store(table_id: int, night_id: int, number: int, mark: str, verdict: list[Any],
           members: dict[str, int]) -> None:
    """One game's results in one transaction, replacing an older analysis of the game. A
    member renamed while the game was judged is stored under the name they have now."""
    now = analysis.current_names(members.values())
    renamed = {name: now[m] for name, m in members.items() if m in now and now[m] != name}
    if renamed:
        verdict = [replace(item, decision=replace(item.decision, player=renamed.get(
            item.decision.player, item.decision.player))) for item in verdict]
        members = {renamed.get(name, name): m for name, m in members.items()}
    figures = totals({number: verdict})
    try:
        db.session.execute(delete(GameAnalysis).where(GameAnalysis.table_id == table_id,
                                                      GameAnalysis.number == number))
        game = GameAnalysis(table_id=table_id, night_id=night_id, number=number, fingerprint=mark,
                            decisions=[item.to_dict() for item in verdict], analysed_at=utcnow())
        game.players = [PlayerAnalysis(night_id=night_id, name=name, member_id=members.get(name),
                                       moves=row["moves"], checker_error=row["checker_error"],
                                       cube_decisions=row["cube_decisions"], cube_error=row["cube_error"])
                        for name, row in sorted(figures.items())]
        db.session.add(game)
        db.session.commit()
    except IntegrityError:
        # Another worker stored this game first (its lease ran out under a slow gnubg): keep one.
        db.session.rollback()
        log.info("table %s game %s: already stored by another worker", table_id, number)


def _finish(table_id: int, claimed_seq: int) -> None:
    row = db.session.get(AnalysisRequest, table_id)
    if row is not None:
        if row.seq <= claimed_seq:
            db.session.delete(row)
        else:  # the log moved on while we worked: judge the table again
            row.lease_until = None
    db.session.commit()


def fail(table_id: int, message: str) -> None:
    """Keep the request, with the reason, and try it again after ``RETRY`` seconds."""
    db.session.rollback()
    db.session.execute(update(AnalysisRequest).where(AnalysisRequest.table_id == table_id).values(
        error=message[:2000], lease_until=utcnow() + timedelta(seconds=RETRY)))
    db.session.commit()
