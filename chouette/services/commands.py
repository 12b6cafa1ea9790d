"""Table commands: check a command against the table's state and write it (docs/log-format.md 1).

A command is one event of the log format. It is checked against the current state
(``table_states.load_play``) by the pure rules (``chouette.table``) and by who may make it
(``deciders.authorize``); if legal it is appended at the next ``seq`` together with the
ledger rows it produces, in one transaction (``services.append_events``). Ledger rows are the
change in every game's money that the event causes, so a drop is booked at once, a finished
game in full, and an undo books the reversal: the ledger is always the projection of the log.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import Any

from flask_babel import gettext as _

from chouette.models import ChouetteTable, Member
from chouette.refusals import say
from chouette.services import base, identity, tables
from chouette.services.chance import server_event
from chouette.services.deciders import authorize, may_run, not_allowed
from chouette.services.game_lines import changed_lines
from chouette.services.table_states import (
    TablePlay,
    ledger_changes,
    load_play,
    played_through,
    remember,
    state_at,
    state_of,
)
from chouette.table import TableError, TableState, apply_event, finishes_game, fold, try_event
from chouette.table.decisions import STANDING, Decided, what_it_decides

#: How many times a decision that stands on its own is judged again when another command
#: was written between its read and its write (four members answering at one moment).
PLAY_ATTEMPTS = 6


def play(table_id: int, expected_seq: int, event: Mapping[str, Any], actor: Member | None,
         *, loaded: TablePlay | None = None) -> TablePlay:
    """Apply one command made at ``expected_seq`` (the seq the actor saw) and write it.

    A decision that stands on its own (docs/rules.md 2.5: an answer, a member's double of their own
    cube, an extra, a partnership answer; ``decisions.what_it_decides``) is judged on the
    table as it is now when other events came in since, as long as what it decides is
    unchanged; when it is gone (the cube answered already, the game over) the rules refuse
    it with their reason. Any other command is made on the table exactly at
    ``expected_seq``.

    ``loaded``: the table as the caller loaded it in this transaction (a view that built the
    event from it), not loaded again; ``tables.append_events`` checks the seq again under the
    write lock either way.

    Raises TableError (the rules refuse it: the message says why), TableChanged (someone
    changed the table first), NotAllowed, NotFound, NightClosed. Nothing is written then.
    """
    current = loaded if loaded is not None and loaded.table.id == table_id else load_play(table_id)
    standing = isinstance(event, Mapping) and event.get("type") in STANDING
    if current.seq != expected_seq and not standing:
        raise base.TableChanged(table_id, expected_seq)
    if not isinstance(event, Mapping):
        raise TableError(_("That is not a table action."))
    seen: list[Decided | None] = []  # what the decision decided on the page, once read
    for attempt in range(1, PLAY_ATTEMPTS + 1):
        if current.seq != expected_seq:
            _still_standing(current, expected_seq, event, seen)
        try:
            with _joining(event):
                return _write(current, event, actor)
        except base.TableChanged:
            if not standing or attempt == PLAY_ATTEMPTS:
                raise
            current = load_play(table_id)  # overtaken between the read and the write
    raise AssertionError("unreachable")


def _still_standing(current: TablePlay, expected_seq: int, event: Mapping[str, Any],
                    seen: list[Decided | None]) -> None:
    """Raise unless ``event``, made on the page drawn at ``expected_seq``, decides the same
    now: the rules' refusal when what it decided is gone, else TableChanged."""
    table_id = current.table.id
    if expected_seq > current.seq:
        raise base.TableChanged(table_id, expected_seq)
    if not seen:  # the state the page was drawn from (read once: its seq never changes)
        drawn = state_at(current, expected_seq)
        seen.append(what_it_decides(drawn, event))
    if seen[0] is None:  # no decision that waited on that page
        raise base.TableChanged(table_id, expected_seq)
    if what_it_decides(current.state, event) == seen[0]:
        return
    try_event(current.state, event)  # gone: the rules' own refusal says why
    raise base.TableChanged(table_id, expected_seq)  # the rules take it, but it is another


def _joining(event: Mapping[str, Any]) -> contextlib.AbstractContextManager[None]:
    """A join is checked and written in one ``writing()``: that the member sits at no other
    open table is read under the write lock (PostgreSQL: the member's advisory lock,
    ``identity.resolve_join``). Any other command reads as a reader and writes in
    ``append_events``."""
    return base.writing(keep_loaded=True) if event.get("type") == "join" else contextlib.nullcontext()


def _write(current: TablePlay, event: Mapping[str, Any], actor: Member | None) -> TablePlay:
    """Authorize ``event`` on ``current`` (the table read at its latest seq), apply it and
    append it at the next seq. Raises TableChanged when another command was written first."""
    table_id, seq = current.table.id, current.seq
    if event.get("type") == "join":  # a member's name seats that member, by id
        event = identity.resolve_join(current.table, event, state_of)
    authorize(actor, current.state, event, current.table)
    after = apply_event(current.state, event)
    rows = ledger_changes(current.state, after)
    snapshots = ({seq + 1: after.snapshot()}
                 if finishes_game(current.state, after, event) else None)
    written = tables.append_events(table_id, seq, [dict(event)], actor, rows, snapshots,
                                   changed_lines(current.state, after))
    remember(table_id, current.generation, current.matched, seq + 1, after)
    return TablePlay(current.table, after, seq + 1, current.generation,
                     current.matched, current.member_names, tuple(written))


def play_all(table_id: int, expected_seq: int, events: Sequence[Mapping[str, Any]],
             actor: Member | None, *, loaded: TablePlay | None = None) -> TablePlay:
    """Apply several commands made at once at exactly ``expected_seq`` and write them in one
    transaction, each at its own seq (the organizer's shortcuts: ``nobody_accepts``).

    Only the organizers who run the table make them (``may_run``): a player's own decisions
    are posted one by one. Raises NotAllowed, TableChanged, TableError (the rules refuse one
    of them: nothing is written), NotFound, NightClosed.
    """
    current = loaded if loaded is not None and loaded.table.id == table_id else load_play(table_id)
    if not may_run(actor, current.table):
        raise not_allowed(actor)
    if current.seq != expected_seq:
        raise base.TableChanged(table_id, expected_seq)
    if not events:
        raise TableError(_("That is not a table action."))
    state, snapshots = played_through(current.state, current.seq, events)
    written = tables.append_events(table_id, current.seq, [dict(e) for e in events], actor,
                                   ledger_changes(current.state, state), snapshots or None,
                                   changed_lines(current.state, state))
    remember(table_id, current.generation, current.matched, current.seq + len(events), state)
    return TablePlay(current.table, state, current.seq + len(events), current.generation,
                     current.matched, current.member_names, tuple(written))


def nobody_accepts(state: TableState) -> list[dict[str, Any]]:
    """The partnership declined by everyone it is still to be offered to, in turn, then the
    partner drawn with the server's chance (docs/rules.md 2.8): the log keeps each decline.
    When no partnership waits, the rules refuse the first event (``play_all`` applies them)."""
    events: list[dict[str, Any]] = []
    while (offered := state.next_partner_offer()) is not None:
        event = {"type": "partner", "player": offered, "accept": False}
        state = apply_event(state, event)
        events.append(event)
    return [*events, server_event(state, "partner_draw")]


def open_match(night_id: int, *, name: str, players: Sequence[str], settings: Mapping[str, Any],
               actor: Member) -> ChouetteTable:
    """Open a head-to-head match table (docs/rules.md 1.8): its settings, and the two players seated
    in the order given (the first on side 0, the box seat), written as its first events.

    Raises ServiceError (the players or settings make no match: nothing is written),
    NotFound, NightClosed.
    """
    checked = tables.normalize_match_settings(settings)
    events: list[dict[str, Any]] = [{"type": "join", "player": p} for p in players]
    events.append({"type": "order", "players": list(players)})
    try:
        state = fold(checked, events)
    except TableError as error:
        raise base.ServiceError(say(error.__cause__ if isinstance(error.__cause__, TableError)
                                        else error)) from error
    if len(state.players) != 2:
        raise base.ServiceError(_("A match is between two players."))
    with base.writing():  # the players checked and seated in one write (resolve_join's lock)
        # A member's name seats that member, by id, as at any table (identity.resolve_join).
        joins = [identity.resolve_join(None, {"type": "join", "player": p}, state_of)
                 for p in state.players]
        seated = [str(join["player"]) for join in joins]
        if len(set(seated)) != 2:
            raise base.ServiceError(_("A match is between two players."))
        table = tables.create_table(night_id, name=name, settings=checked, actor=actor)
        tables.append_events(table.id, 0, [*joins, {"type": "order", "players": seated}], actor)
    return table
