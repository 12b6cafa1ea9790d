"""Who decides: whose decision a command is, who sits where, who runs a table (docs/rules.md 2).

A player makes their own decisions at the table from their phone; the organizer who runs
the table records everything else (and may make any command). ``authorize`` is the one
check every command passes: ``decider`` says whose decision an event is, ``seat_name``
which seat is the signed-in member's (by id, from the folded state: never by name).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask_babel import gettext as _

from chouette.models import ChouetteTable, Member
from chouette.services import base
from chouette.services.table_states import seat_members
from chouette.table import TableError, TableState, try_event
from chouette.table.actions import legal_actions
from chouette.table.cubes import BOX_SIDE

ORGANIZER_ROLES = ("organizer", "admin")
ANSWERS = ("take", "drop", "beaver", "raccoon")


class NotAllowed(base.ServiceError):
    """The signed-in member may not make this command (e.g. another player's cube)."""


def is_organizer(member: Member | None) -> bool:
    """Whether ``member`` runs tables (organizer or admin)."""
    return member is not None and getattr(member, "role", None) in ORGANIZER_ROLES


#: The decisions that wait for a player: answers to an offer, a partnership offered to the
#: player, an extra they may give (their doubles are theirs too, but nothing waits for them).
WAITING_KINDS = (*ANSWERS, "partner", "extra")


def decider(state: TableState, event: Mapping[str, Any]) -> str | None:
    """The player who makes the decision ``event`` is, by docs/rules.md, or None for what only the
    organizer records (joins, the order, dice, moves, results, undo, corrections, draws,
    deals and proxies).

    A member who stepped away has handed their decisions to a proxy for the rest of the game
    (docs/rules.md 2.12): the proxy decides them (``owner`` says whose decision it is).
    """
    owner = decision_owner(state, event)
    game = state.game
    if owner is not None and game is not None and owner in game.proxies:
        return game.proxies[owner]
    return owner


def decision_owner(state: TableState, event: Mapping[str, Any]) -> str | None:
    """The player whose decision ``event`` is, by docs/rules.md, or None for what only the
    organizer records (see ``decider``, which hands an absent member's to their proxy).

    Who acts is read from the state wherever the state says it (the side an offer waits
    for), else from the event's own actor field (``by``, ``from``, ``player``), which the
    rules then check: an event naming a player as its actor can only ever be legal as theirs.

    - the partnership: the player it is offered to (2.8);
    - an extra: its giver (2.7); a redouble of an extra cube: the holder who doubles;
      an answer on it: the side its offer waits for (the giver sits on the box's side);
    - a double: the box's is the box's; a member's is their own (single cube: the acting
      captain's, which the rules check);
    - an answer to the box's double: each member on their own cube (2.4, 2.5; with a single
      cube the rules let only the captain beaver);
    - any other answer (to a member's double, a beaver, a raccoon, also while the box's
      double waits for other members): the side the cube's offer waits for, the box or the
      member; the team's single cube: the box, or the acting captain for the team.
    """
    kind = event.get("type")
    if (state.settings.is_match or state.settings.online) and kind in ("roll", "move"):
        return match_mover(state)  # online, the side on roll rolls and moves on its device
    if kind == "partner":
        return _named(event.get("player"))
    if kind == "extra":
        return _named(event.get("from"))
    if kind == "double":  # a double may start a game
        by = event.get("by")
        if by == "box":
            return None if "extra" in event else state.box
        return _named(by)
    game = state.game
    if game is None or kind not in ANSWERS:
        return None
    if "extra" in event:
        extra = next((e for e in game.extras if e.giver == event.get("extra")), None)
        if extra is None or extra.cube.to_answer is None:
            return None
        return extra.giver if extra.cube.to_answer == BOX_SIDE else extra.taker
    cube = event.get("cube")
    if cube == "team" and state.settings.cube_mode == "single":
        sides = {game.cubes[m].to_answer for m in game.pending}
        if sides == {"box"}:
            return state.box
        return game.acting_captain if sides == {"member"} else None
    if not isinstance(cube, str) or cube not in game.cubes:
        return None
    box_double = game.box_double
    if box_double is not None and cube in box_double.waiting:
        return cube
    side = game.cubes[cube].to_answer
    if side == "box":  # a member's double or beaver (also mid box's double, docs/rules.md 2.5)
        return state.box
    if side == "member":
        return cube
    # Nothing waits on it: a member who has answered the box's double still open is told
    # by the rules that their answer stands, not refused as someone else.
    return cube if box_double is not None and cube in box_double.cubes else None


def match_mover(state: TableState) -> str | None:
    """At a match table (or a table that plays online), the player whose dice and move they
    are now: the box or the acting captain, for the side on roll (either of them for the
    opening roll: see ``may_decide``)."""
    game = state.game
    if game is None or game.on_roll is None:
        return None
    return state.box if game.on_roll == "box" else game.acting_captain


def _named(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def seat_name(member: Member | None, table_id: int, state: TableState) -> str | None:
    """The seat ``member`` holds at the table whose state is ``state``, by their id (the
    joins the fold applied, ``table_states.seat_members``), never by their name: an account of
    the same name is someone else. None when they do not play here. (``table_id``: the table's.)"""
    member_id = getattr(member, "id", None)
    if not isinstance(member_id, int) or not getattr(member, "is_authenticated", True):
        return None
    name = next((seat for seat, owner in seat_members(state).items() if owner == member_id), None)
    return name if name is not None and name in state.players else None


def guests_of(table_id: int, state: TableState) -> frozenset[str]:
    """The players of this table who are guests: seated under a name that is no member's
    (their money goes to no member's balance). The pages mark them."""
    seats = seat_members(state)
    return frozenset(name for name in state.players if name not in seats)


def may_decide(member: Member | None, state: TableState, event: Mapping[str, Any],
               table_id: int | None = None) -> bool:
    """Whether ``event`` is the signed-in player's own decision (their phone may post it): the
    decider's seat is theirs by id (``seat_name``; no table: nobody's)."""
    if table_id is None:
        return False
    name = seat_name(member, table_id, state)
    if name is None:
        return False
    if state.settings.is_match and event.get("type") == "opening_roll":
        return state.is_seated(name)  # either player rolls the opening (docs/rules.md 1.2)
    if state.settings.online and event.get("type") == "opening_roll":
        return name in opening_rollers(state)
    return decider(state, event) == name


def opening_rollers(state: TableState) -> tuple[str, ...]:
    """At a table that plays online, who may roll the opening roll (the server's dice, one
    for each side): the box or the (acting) captain."""
    game = state.game
    captain = game.acting_captain if game is not None else state.captain
    return tuple(name for name in (state.box, captain) if name)


def candidate_decisions(state: TableState) -> list[dict[str, Any]]:
    """Every legal decision now: ``legal_actions`` and the extra cubes' redoubles and answers."""
    return [*legal_actions(state), *extra_cube_actions(state)]


def extra_cube_actions(state: TableState) -> list[dict[str, Any]]:
    """The legal redoubles and answers on the live extra cubes (each tried on the rules)."""
    found: list[dict[str, Any]] = []
    game = state.game
    for extra in game.extras if game is not None else []:
        candidates: list[dict[str, Any]] = [
            {"type": "double", "by": who, "extra": extra.giver} for who in (extra.taker, extra.giver)]
        candidates += [{"type": kind, "extra": extra.giver} for kind in ANSWERS]
        for event in candidates:
            try:
                try_event(state, event)  # a look-ahead: the cached state stays free
            except TableError:
                continue
            found.append(event)
    return found


def decisions_of(name: str | None, state: TableState,
                 legal: Sequence[Mapping[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The legal decisions that are ``name``'s now (``legal``: ``candidate_decisions``)."""
    if not name:
        return []
    events = candidate_decisions(state) if legal is None else legal
    return [dict(event) for event in events if decider(state, event) == name]


def waiting_for(name: str | None, state: TableState,
                legal: Sequence[Mapping[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The decisions that wait for ``name`` now: offers to answer, the partnership, extras."""
    return [e for e in decisions_of(name, state, legal) if e["type"] in WAITING_KINDS]


def may_run(member: Member | None, table: ChouetteTable) -> bool:
    """Whether ``member`` runs this table: an admin, the organizer who opened its night or
    the one who created it (another table's organizer may watch, not run it).

    A table with neither recorded (made outside the app's pages) is run by any organizer.
    """
    if not is_organizer(member) or member is None:
        return False
    if member.role == "admin":
        return True
    owners = {table.created_by_id, table.night.opened_by_id} - {None}
    return not owners or member.id in owners


def own_seat(member: Member | None, state: TableState, event: Mapping[str, Any],
             table_id: int) -> bool:
    """Whether ``event`` seats or unseats ``member`` themselves: a join that seats them by
    id (``identity.resolve_join`` wrote the id from the name, never from the form), with
    nothing else in it, or the leave of their own seat (``seat_name``, by id)."""
    member_id = getattr(member, "id", None)
    if not isinstance(member_id, int) or not getattr(member, "is_authenticated", True):
        return False
    if event.get("type") == "join":
        return event.get("member_id") == member_id and set(event) <= {"type", "player", "member_id"}
    if event.get("type") == "leave":
        name = seat_name(member, table_id, state)
        return name is not None and event.get("player") == name
    return False


def own_hand_over(member: Member | None, state: TableState, event: Mapping[str, Any],
                  table_id: int) -> bool:
    """Whether ``event`` is ``member`` handing their own cube decisions to a teammate for the
    rest of the game (a proxy, docs/rules.md 2.12), as they may before stepping away; the
    rules check the rest (a live cube, a teammate still playing)."""
    if event.get("type") != "proxy" or set(event) != {"type", "player", "to"}:
        return False
    name = seat_name(member, table_id, state)
    return name is not None and event.get("player") == name


def authorize(member: Member | None, state: TableState, event: Mapping[str, Any],
              table: ChouetteTable | None = None) -> None:
    """Raise NotAllowed unless ``member`` may make this command at this table: their own
    decision (``decider``), or any command for the organizers who run it (``may_run``;
    ``table`` None: any organizer)."""
    if may_decide(member, state, event, table.id if table is not None else None):
        return
    if table is not None and own_seat(member, state, event, table.id):
        return
    if table is not None and own_hand_over(member, state, event, table.id):
        return
    if table is not None and event.get("type") == "undo" and set(event) == {"type"}:
        from chouette.services.take_back import own_drop_until  # it reads the log's last row

        if own_drop_until(member, table.id, state, seat_name(member, table.id, state)):
            return
    if is_organizer(member) and (table is None or may_run(member, table)):
        return
    if (state.settings.online and event.get("type") in ("roll", "move", "opening_roll")
            and not is_organizer(member)):
        raise NotAllowed(_online_turn(state))
    raise not_allowed(member)


def _online_turn(state: TableState) -> str:
    """The refusal of a roll or a move by a player whose turn it is not, at an online table."""
    mover = match_mover(state)
    if mover is None:
        return _("At a table played online the box or the captain rolls the opening roll, "
                 "each on their own device.")
    return _("At a table played online the player on roll rolls and moves on their own "
             "device: it is %(name)s's turn.", name=mover)


def not_allowed(member: Member | None) -> NotAllowed:
    """The refusal of a command that is neither ``member``'s decision nor theirs to run."""
    if is_organizer(member):
        return NotAllowed(_("This table is run by the organizer who opened the night or created "
                            "the table; you may watch it."))
    return NotAllowed(_("That is not your decision: players make their own decisions at the "
                        "table, and the organizer runs it."))

