"""Who sits where at a live table, in words: the seats and the line, every member's cube, who
may leave, each seat's member id (the page marks the viewer's own: ``static/js/mine.js``), the
viewer's own seat, and the home page's list of the tables where a member sits.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask_login import current_user

from chouette.models import ChouetteTable, Member
from chouette.services import deciders, identity, table_states
from chouette.table import TableError, TableState, apply_event
from chouette.web.board_cubes import CubeView
from chouette.web.catalog import gettext as _
from chouette.web.live_derived import per_state


def runs_table(table: ChouetteTable) -> bool:
    """Whether the signed-in member runs this table (``deciders.may_run``)."""
    return current_user.is_authenticated and deciders.may_run(current_user, table)


def my_seat(table_id: int, state: TableState) -> str | None:
    """The signed-in member's seat name at this table, if they play here (by their id)."""
    if not current_user.is_authenticated:
        return None
    return deciders.seat_name(current_user, table_id, state)


def leavers(state: TableState) -> list[str]:
    """Who may leave now (the rules decide: not with a live cube in the game)."""
    allowed = []
    for name in state.seated:
        try:
            apply_event(state, {"type": "leave", "player": name})
        except TableError:
            continue
        allowed.append(name)
    return allowed


def seat_rows(state: TableState) -> list[tuple[str, str, str]]:
    """(name, seat in words, kind) for everyone seated, box first, then the line in order."""
    rows = [(name, label, kind) for name, label, kind in (
        (state.box, _("Box"), "box"), (state.partner, _("Partner"), "partner"),
        (state.captain, _("Captain"), "captain")) if name]
    if state.game is not None and state.game.captain_left:
        # The captain dropped and left: the seat waits for the others' answers (rules 2.5).
        rows.append(("", _("Captain"), "captain-waiting"))
    rows += [(name, _("Line %(number)d", number=i), "line") for i, name in enumerate(state.line, 1)]
    game = state.game
    if game is not None and game.acting_captain != game.members[0] and not game.captain_left:
        # Who plays on for the team after the captain's drop, or after the box dropped the
        # captain's cube (the seat stays the captain's then): rules 2.4, 2.5.
        rows = [(name, (_("Acting captain") if kind == "captain" else
                        _("%(seat)s · acting captain", seat=label))
                 if name == game.acting_captain else label, kind) for name, label, kind in rows]
    rows += [(name, _("Joins after this game"), "pending") for name in state.pending_joiners]
    return rows


def seat_of(state: TableState, name: str) -> str | None:
    """Where ``name`` sits at this table, in words (box, captain, line 3, ...), or None."""
    if not state.ordered:
        return _("Waiting for the starting order") if state.is_seated(name) else None
    return next((label for who, label, _kind in seat_rows(state) if who == name), None)


def player_tables(member: Member, nights: list[Any]) -> list[dict[str, Any]]:
    """The open tables of ``nights`` where ``member`` sits (by id): the table, its night, their
    seat and the decisions waiting for them (the home page)."""
    found = []
    for night in nights:
        if not night.is_open:
            continue
        for table in night.tables:
            if table.closed_at is not None:
                continue
            state = table_states.load_play(table.id).state
            name = deciders.seat_name(member, table.id, state)
            seat = seat_of(state, name) if name is not None else None
            if seat is None:
                continue
            found.append({"table": table, "night": night, "seat": seat,
                          "waiting": bool(deciders.waiting_for(name, state))})
    return found


def cube_rows(state: TableState) -> list[dict[str, Any]]:
    """Every member's cube: the game's, or before a game the team's cubes in the middle."""
    game = state.game
    if game is not None:
        # A box's double is settled once every member answered: show who already took (a
        # drop stands at once and shows on the cube; so does a beaver, the box's to answer).
        answered = {m: a for m, a in (game.box_double.answers.items() if game.box_double else ())
                    if game.cubes[m].is_live and ((offer := game.cubes[m].cube.offer) is None
                                                  or offer.kind == "double")}
        return [{"name": m, "view": CubeView.from_member_cube(game.cubes[m]),
                 "captain": m == game.acting_captain and not game.captain_left,
                 "answered": answered.get(m)}
                for m in game.members]
    return [{"name": m, "view": CubeView(m), "captain": m == state.captain, "answered": None}
            for m in state.seats.team]


def seat_ids(played: table_states.TablePlay) -> dict[str, int]:
    """Seat name -> member id at this table as ``played`` reads it (a guest's seat is absent):
    the rows the page marks as the viewer's own (``static/js/mine.js``)."""
    table, state = played.table, played.state
    return per_state(state, f"seat-ids:{played.matched}",
                     lambda: identity.seat_members_of([table.id], through=played.seq)[table.id])


def decider_ids(state: TableState, ids: dict[str, int], doubles: Sequence[str]) -> dict[str, int]:
    """Member name -> the member id of who decides their double of the box (themselves, or their
    proxy): in a shared drawing each double button shows on its decider's page only."""
    found = {}
    for name in doubles:
        decider = deciders.decider(state, {"type": "double", "by": name})
        if decider in ids:
            found[name] = ids[decider]
    return found
