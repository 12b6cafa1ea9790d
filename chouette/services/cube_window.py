"""The turn's cube window at an online table, and the clock of each decision (issue 26, item 2).

Before a side rolls, everyone who may double then is asked "double" or "roll" (docs/rules.md
2.4, 2.5: the box before rolling; on the team's turn each member whose cube the box does not
own, and with a single cube the acting captain alone). A player on auto-roll is asked nothing
unless they hold the roll by a tap; auto-roll is the crew's default (the members other than the
captain), off for the box and the captain. The side's roller (the box, the acting captain)
says "roll" too: their roll waits for the window to close, and the dice are rolled in the same
transaction as the answer that closes it.

A table's time limit (the house rule ``decision_seconds``, 0 = off, changed between games like
any house rule and written to the log) gives each decision a deadline: an unanswered "roll or
double" rolls, an unanswered take or drop is decided by the table's rule (``unanswered_double``,
drop by default), a move is never made for anyone (the page alerts the runner). The pure packages have no clock: the decision's opening time (its first event's time
in the log) and the answers live in ``turn_window``; "roll" answers are no events of the rules'
log, a "double" is the log's double event. Expiry is enforced when a command comes (``settle``)
and when a page's countdown posts "time up", under the row's lock, in one transaction.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from chouette.extensions import db
from chouette.models import Member, TableEvent, TurnWindow, utcnow
from chouette.refusals import say
from chouette.services import base, chance, deciders, table_states, tables
from chouette.services.game_lines import changed_lines
from chouette.services.window_rules import (  # noqa: F401 - the window's rules, used from here
    HOLD,
    ROLL,
    Phase,
    Window,
    auto_roll,
    eligible,
    legal,
    phase_of,
    roller,
    view,
)
from chouette.table import TableError, TableState, apply_event

TIMEOUT_ANSWERS = ("drop", "take")


# --------------------------------------------------------------------------- the row


def read_row(table_id: int) -> TurnWindow | None:
    """The table's window row as stored (for pages: no lock, nothing written)."""
    return db.session.get(TurnWindow, table_id)


def _last_event_at(played: table_states.TablePlay) -> datetime | None:
    """When the table's last event was written: the decision waited for now began then."""
    return db.session.scalar(select(TableEvent.at).where(
        TableEvent.table_id == played.table.id, TableEvent.seq == played.seq))


def read_view(played: table_states.TablePlay) -> Window | None:
    """The window of an online table as stored now (for pages and checks: nothing written)."""
    if phase_of(played.state, played.seq) is None:
        return None
    row = read_row(played.table.id)
    began = _last_event_at(played) if played.state.settings.decision_seconds else None
    return view(played.state, row, began, played.seq)


def _locked_row(table_id: int) -> TurnWindow:
    """The table's row under its lock (PostgreSQL: FOR UPDATE; SQLite: the writer's lock)."""
    query = (select(TurnWindow).where(TurnWindow.table_id == table_id).with_for_update()
             .execution_options(populate_existing=True))
    row = db.session.scalars(query).first()
    if row is None:
        row = TurnWindow(table_id=table_id, key="", opened_at=utcnow(), answers={}, auto_roll={})
        db.session.add(row)
        try:
            with db.session.begin_nested():
                db.session.flush()
        except IntegrityError:  # another request made it first: take theirs, locked
            row = db.session.scalars(query).one()
    return row


def _synced(played: table_states.TablePlay, row: TurnWindow) -> Phase | None:
    """Bring the row to the decision the table waits for now: a new decision starts its clock
    at its first event's time (the table's last event) with no answers."""
    phase = phase_of(played.state, played.seq)
    if phase is not None and row.key != phase.key:
        # The clock's start matters only with a time limit (fixed within a game, as every house
        # rule is); read before the row changes, so that the row is written in one UPDATE.
        timed = played.state.settings.decision_seconds
        opened_at = (_last_event_at(played) if timed else None) or utcnow()
        row.key, row.answers, row.opened_at = phase.key, {}, opened_at
    return phase


def _write(played: table_states.TablePlay, events: list[dict[str, Any]], actor: Member | None
           ) -> table_states.TablePlay:
    """Apply ``events`` (made by the window, not typed by anyone) and append them with what
    they change, in the caller's transaction (``tables.append_events`` commits it)."""
    state, snapshots = table_states.played_through(played.state, played.seq, events)
    written = tables.append_events(played.table.id, played.seq, events, actor,
                                   table_states.ledger_changes(played.state, state), snapshots or None,
                                   changed_lines(played.state, state))
    return table_states.TablePlay(played.table, state, played.seq + len(events), played.generation,
                              played.matched, played.member_names, tuple(written))


def _timeout_answers(state: TableState, rule: str) -> list[dict[str, Any]]:
    """The answers the table's rule gives every offer still waiting (the other answer where
    the rules refuse it, as all-but-one may refuse a take)."""
    events: list[dict[str, Any]] = []
    for _attempt in range(200):
        game = state.game
        if game is None or not (game.pending or game.pending_extras):
            break
        answers = [e for e in deciders.candidate_decisions(state) if e["type"] in TIMEOUT_ANSWERS]
        chosen = ([e for e in answers if e["type"] == rule] or answers)[:1]
        if not chosen:
            break
        state = apply_event(state, chosen[0])
        events.append(chosen[0])
    return events


def _after(played: table_states.TablePlay, row: TurnWindow, actor: Member | None, now: datetime,
           *, time_up: bool = False) -> table_states.TablePlay | None:
    """What the window's state now makes happen, written at once: on expiry the unanswered
    roll (and the roller's roll) or the table's rule for the offers; a closed window whose
    roller said "roll" rolls the server's dice. Returns the table written, or None."""
    window = view(played.state, row, seq=played.seq)
    if window is None:
        return None
    expired = window.expired(now) or time_up
    if window.phase.kind == "answer" and expired:
        events = _timeout_answers(played.state, played.state.settings.unanswered_double)
        return _write(played, events, actor) if events else None
    if window.phase.kind != "window":
        return None
    if expired:
        answers = dict(row.answers or {})
        for name in (*window.waiting, window.roller):
            if name:
                answers[name] = ROLL
        row.answers = answers
        window = view(played.state, row, seq=played.seq)
        assert window is not None
    if window.closed and window.roller and window.answers.get(window.roller) == ROLL:
        return _write(played, [chance.server_event(played.state, "roll")], actor)
    return None


# --------------------------------------------------------------------------- commands


@dataclass(frozen=True)
class Outcome:
    """A window command's result: the table (written to if ``rolled``), and what to say."""

    played: table_states.TablePlay
    rolled: bool
    message: str | None = None


def _outcome(played: table_states.TablePlay, written: table_states.TablePlay | None,
             message: str | None = None) -> Outcome:
    if written is None:
        return Outcome(played, False, message)
    return Outcome(written, True, message)


def _decides_for(actor: Member | None, played: table_states.TablePlay, name: str) -> bool:
    """Whether ``actor`` answers for ``name``: their own seat (or a proxy's, docs/rules.md 2.12),
    or the organizer who runs the table."""
    if deciders.may_run(actor, played.table):
        return True
    state = played.state
    by = "box" if name == state.box else name
    seat = deciders.seat_name(actor, played.table.id, state)
    return seat is not None and deciders.decider(state, {"type": "double", "by": by}) == seat


def _start(table_id: int, actor: Member | None, name: str | None
           ) -> tuple[table_states.TablePlay, TurnWindow, Phase | None, str]:
    row = _locked_row(table_id)  # a row made for a table at the club is rolled back below
    played = table_states.load_play(table_id)  # read under the lock
    if not played.state.settings.online:
        raise base.ServiceError(_("This table plays at the club: it has no cube window."))
    phase = _synced(played, row)
    who = name or deciders.seat_name(actor, table_id, played.state) or ""
    return played, row, phase, who


def answer_roll(table_id: int, actor: Member | None, name: str | None = None) -> Outcome:
    """``name`` (the actor's seat by default) says "roll". The roller's roll waits for the
    window to close; the answer that closes it rolls. Raises ServiceError, NotAllowed."""
    with base.writing(keep_loaded=True):  # the window and the table, written together
        played, row, phase, who = _start(table_id, actor, name)
        now = utcnow()
        written = _after(played, row, actor, now)
        if written is not None:  # the window had expired: nothing left to answer
            return _outcome(played, written)
        window = view(played.state, row, seq=played.seq)
        if window is None or phase is None or phase.kind != "window":
            raise base.ServiceError(_("No cube window is open: nobody says roll or double now."))
        if who not in window.asked and who != window.roller:
            raise base.ServiceError(_("%(name)s is not asked to roll or double now.", name=who or "…"))
        if not _decides_for(actor, played, who):
            raise deciders.NotAllowed(_("That is not your decision: players make their own decisions "
                                        "at the table, and the organizer runs it."))
        row.answers = {**(row.answers or {}), who: ROLL}
        written = _after(played, row, actor, now)
        window = view(played.state, row, seq=played.seq)
        message = None
        if written is None and window is not None and who == window.roller and window.waiting:
            message = _("Your roll waits for %(names)s to say double or roll.",
                        names=", ".join(window.waiting))
        return _outcome(played, written, message)


def hold(table_id: int, actor: Member | None, name: str | None = None) -> Outcome:
    """A player on auto-roll holds the roll: they are asked this time. Raises ServiceError."""
    with base.writing(keep_loaded=True):  # the window and the table, written together
        played, row, phase, who = _start(table_id, actor, name)
        window = view(played.state, row, seq=played.seq)
        if window is None or phase is None or phase.kind != "window" or who not in window.eligible:
            raise base.ServiceError(_("Nothing to hold: %(name)s may not double now.", name=who or "…"))
        if not _decides_for(actor, played, who):
            raise deciders.NotAllowed(_("That is not your decision: players make their own decisions "
                                        "at the table, and the organizer runs it."))
        if window.answers.get(who) == ROLL:
            raise base.ServiceError(_("%(name)s has already said roll.", name=who))
        row.answers = {**(row.answers or {}), who: HOLD}
        return _outcome(played, None)


def set_auto_roll(table_id: int, actor: Member | None, on: bool, name: str | None = None) -> Outcome:
    """A player turns their auto-roll on or off (from the next question on; turning it on
    while asked counts as "roll"). Raises ServiceError, NotAllowed."""
    with base.writing(keep_loaded=True):  # the window and the table, written together
        played, row, _phase, who = _start(table_id, actor, name)
        if not who or not played.state.is_seated(who):
            raise base.ServiceError(_("Only a player seated at the table has an auto-roll."))
        if not _decides_for(actor, played, who):
            raise deciders.NotAllowed(_("That is not your decision: players make their own decisions "
                                        "at the table, and the organizer runs it."))
        row.auto_roll = {**(row.auto_roll or {}), who: bool(on)}
        if on and (row.answers or {}).get(who) == HOLD:
            row.answers = {k: v for k, v in row.answers.items() if k != who}
        return _outcome(played, _after(played, row, actor, utcnow()))


def time_up(table_id: int, actor: Member | None, *, force: bool = False) -> Outcome:
    """A page's countdown reached zero (or, ``force``, the runner closes the decision now):
    what the time limit decides is written if the deadline has passed; else nothing."""
    with base.writing(keep_loaded=True):  # the window and the table, written together
        played, row, _phase, _who = _start(table_id, actor, None)
        if force and not deciders.may_run(actor, played.table):
            raise deciders.NotAllowed(_("Only the organizer who runs the table closes a decision."))
        return _outcome(played, _after(played, row, actor, utcnow(), time_up=force))


def settle(table_id: int, actor: Member | None) -> Outcome:
    """Enforce an expired deadline now (any command at an online table calls it first)."""
    return time_up(table_id, actor)


def roll_refusal(played: table_states.TablePlay) -> str | None:
    """Why the dice may not be rolled now at an online table (the window is still open), or
    None. An expired window counts as closed (its unanswered members roll)."""
    phase = phase_of(played.state, played.seq)
    if phase is None or phase.kind != "window":
        return None
    window = read_view(played)
    if window is None or window.closed or window.expired(utcnow()):
        return None
    return _("The cube window is open: the roll waits for %(names)s to say double or roll.",
             names=", ".join(window.waiting))


def overdue(played: table_states.TablePlay) -> bool:
    """Whether a deadline of this online table has passed with something for it to decide
    (a command then settles it first): a window to roll, offers to answer."""
    if not played.state.settings.decision_seconds:
        return False  # no time limit, no deadline (and no read of the window's row)
    window = read_view(played)
    return (window is not None and window.phase.kind != "move" and window.expired(utcnow()))


def answer_all(table_id: int, expected_seq: int, actor: Member | None,
               answers: Mapping[str, str]) -> Outcome:
    """The box answers every cube that waits for the box in one go (``answers``: cube ->
    take, drop, beaver or raccoon), each answer checked on the table as the earlier ones
    leave it, all written in one transaction or none. Raises ServiceError (a cube left
    unanswered, an answer the rules refuse: nothing written), NotAllowed, TableChanged."""
    with base.writing(keep_loaded=True):  # the window and the table, written together
        played, _row, _phase, _who = _start(table_id, actor, None)
        if played.seq != expected_seq:
            raise base.TableChanged(table_id, expected_seq)
        state = played.state
        box = state.box
        waiting = {str(e["cube"]): e for e in deciders.waiting_for(box, state)
                   if e["type"] in deciders.ANSWERS and "cube" in e}
        if not waiting:
            raise base.ServiceError(_("No cube waits for the box's answer."))
        missing = [cube for cube in waiting if answers.get(cube) not in deciders.ANSWERS]
        if missing:
            raise base.ServiceError(_("Choose an answer for every cube: %(cubes)s.", cubes=", ".join(missing)))
        events = []
        for cube in waiting:
            event = {"type": answers[cube], "cube": cube}
            try:
                deciders.authorize(actor, state, event, played.table)
                state = apply_event(state, event)
            except TableError as refused:
                raise base.ServiceError(say(refused)) from refused
            events.append(event)
        return _outcome(played, _write(played, events, actor))
