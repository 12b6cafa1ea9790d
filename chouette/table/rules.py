"""The chouette rules, one handler per event type (docs/rules.md 2; log format in docs/log-format.md).

Each handler checks the event against the state, raises TableError with a reason the
players understand, and otherwise changes the (already copied) state in place.

This module holds the dispatch and the seats: joining, leaving, the starting order and the
box's partnership (docs/rules.md 2.1 to 2.3, 2.8). The cubes' handlers are in
:mod:`chouette.table.cube_rules` (doubles), :mod:`chouette.table.cube_answers` (answers) and
:mod:`chouette.table.box_double` (the box's double answered, extras); the start of a game, the board and the end of a game in
:mod:`chouette.table.game_rules`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chouette.engine.errors import Phrase
from chouette.table import match_rules
from chouette.table import seats as seating
from chouette.table.box_double import captain_leaves, on_extra
from chouette.table.cube_answers import on_answer
from chouette.table.cube_rules import CUBE_EVENTS, check_cube_limit, on_double
from chouette.table.cubes import LIVE
from chouette.table.deals import on_deal, on_proxy
from chouette.table.errors import TableError
from chouette.table.game_rules import (
    on_correct,
    on_move,
    on_opening_roll,
    on_result,
    on_roll,
    seated_player,
)
from chouette.table.settings import MAX_STAKE_CENTS
from chouette.table.settings_event import on_settings
from chouette.table.tablestate import TableState, check_name


def apply(state: TableState, event: dict[str, Any]) -> None:
    """Apply one event to ``state`` in place.

    Raises:
        TableError: the event is malformed or not allowed now.
    """
    kind = event.get("type")
    handler = HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise TableError("unknown event type {event_type!r}", event_type=kind)
    if state.settings.is_match:
        match_rules.check(state, event)
    handler(state, event)
    if kind in CUBE_EVENTS and state.game is not None:
        check_cube_limit(state.game)


# --- players and seats -------------------------------------------------------------------


def on_join(state: TableState, event: dict[str, Any]) -> None:
    """A player sits down: at the end of the line (or behind the next rotation)."""
    name = check_name(event.get("player"))
    if state.is_seated(name):
        raise TableError("{name} is already at the table", name=name)
    stake = event.get("stake_cents")
    if stake is not None:
        if not state.settings.per_player_stakes:
            raise TableError("this table plays one stake for everyone; per-player stakes are off")
        if isinstance(stake, bool) or not isinstance(stake, int) or stake < 0:
            raise TableError("{name}'s stake must be a whole number of cents, not {stake!r}",
                             name=name, stake=stake)
        if stake > MAX_STAKE_CENTS:
            raise TableError("{name}'s stake can be at most {max} a point",
                             name=name, max=f"{MAX_STAKE_CENTS // 100}.00")
        state.stakes[name] = stake
    if name not in state.players:
        state.players.append(name)
    if not state.ordered:
        if state.order_groups is None:
            state.waiting.append(name)
        else:
            state.order_groups.append([name])
    elif state.game is not None and state.settings.join_position == "after_next_rotation":
        state.pending_joiners.append(name)
    else:
        state.seats.line.append(name)
        if state.game is None or not state.game.captain_left:
            state.seats.fill()  # a captain's seat waiting for the answers stays empty


def on_leave(state: TableState, event: dict[str, Any]) -> None:
    """A player leaves; not while they have a live cube in the game (docs/rules.md 2.2)."""
    name = seated_player(state, event.get("player"))
    game = state.game
    if game is not None:
        if name in (state.seats.box, state.seats.partner):
            raise TableError("{name} plays for the box side in this game; leave after it", name=name)
        if name == game.seat_captain and game.captain_won_early:
            raise TableError("{name} has beaten the box in this game; leave after it", name=name)
        if name in game.live or any(
                name in (e.giver, e.taker) and e.status == LIVE for e in game.extras):
            raise TableError("{name} has a live cube in this game; leave after it", name=name)
        if name == game.seat_captain and game.box_double is not None:
            captain_leaves(state, game)  # the captain's seat waits for the others' answers
            state.partner_offers = [p for p in state.partner_offers if p != name]
            return
    if name in state.waiting:
        state.waiting.remove(name)
    elif name in state.pending_joiners:
        state.pending_joiners.remove(name)
    elif state.order_groups is not None and not state.ordered:
        state.order_groups = [[p for p in g if p != name] for g in state.order_groups]
        state.order_groups = [g for g in state.order_groups if g]
        _finish_order(state)
    else:
        was_partner = name == state.seats.partner
        if seating.remove_player(state.seats, name) or was_partner:
            state.partner_offers = []
    if name in state.partner_offers:
        state.partner_offers.remove(name)


def on_order_roll(state: TableState, event: dict[str, Any]) -> None:
    """One die each for the starting order; later rolls only among the tied (docs/rules.md 2.1)."""
    rolls = event.get("rolls")
    if not isinstance(rolls, dict) or not rolls:
        raise TableError("an order roll needs a die for each player")
    if state.ordered:
        raise TableError("the starting order is already settled")
    checked = {seated_player(state, n): seating.check_die(str(n), d) for n, d in rolls.items()}
    if state.order_groups is None:
        expected = set(state.waiting)
        if len(expected) < 2:
            raise TableError("at least two players must be at the table to roll for the order")
        if set(checked) != expected:
            missing = ", ".join(sorted(expected - set(checked))) or Phrase("none")
            raise TableError("every player rolls for the order; missing: {missing}", missing=missing)
        state.order_groups = seating.order_groups(checked)
        state.waiting = []
    else:
        tied = [g for g in state.order_groups if len(g) > 1]
        rolled = set(checked)
        chosen = [g for g in tied if set(g) <= rolled]
        if {p for g in chosen for p in g} != rolled or not chosen:
            groups = "; ".join(", ".join(g) for g in tied)
            raise TableError("only tied players roll again, a whole tie at a time: {groups}", groups=groups)
        new_groups: list[list[str]] = []
        for group in state.order_groups:
            if group in chosen:
                new_groups.extend(seating.order_groups({p: checked[p] for p in group}))
            else:
                new_groups.append(group)
        state.order_groups = new_groups
    _finish_order(state)


def on_order(state: TableState, event: dict[str, Any]) -> None:
    """A recorded starting order (a shuffle, or dice rolled off the app): box first."""
    players = event.get("players")
    if state.ordered:
        raise TableError("the starting order is already settled")
    if not isinstance(players, list):
        raise TableError("a recorded order lists the players, box first")
    names = [seated_player(state, p) for p in players]
    expected = state.waiting + [p for g in state.order_groups or [] for p in g]
    if sorted(names) != sorted(expected) or len(set(names)) != len(names):
        raise TableError("a recorded order names every player at the table exactly once")
    if len(names) < 2:
        raise TableError("at least two players must be at the table to set the order")
    state.waiting = []
    state.order_groups = [[n] for n in names]
    _finish_order(state)


def _finish_order(state: TableState) -> None:
    """Seat everyone once no tie is left: box, captain, line."""
    groups = state.order_groups
    if groups is None or any(len(g) > 1 for g in groups) or not groups:
        return
    order = [g[0] for g in groups]
    state.seats = seating.Seats(order[0], None, None, order[1:])
    state.seats.fill()
    state.ordered = True
    state.order_groups = None


def on_partner(state: TableState, event: dict[str, Any]) -> None:
    """The partnership offered to the next player in turn: accepted or declined (docs/rules.md 2.8)."""
    name = seated_player(state, event.get("player"))
    if state.game is not None:
        raise TableError("the partnership is settled between games")
    if not state.needs_partner():
        raise TableError("no partnership is to be offered now")
    expected = state.next_partner_offer()
    if name != expected:
        raise TableError("the partnership must be offered to {expected} now, not {name}",
                         expected=expected, name=name)
    accept = event.get("accept")
    if not isinstance(accept, bool):
        raise TableError("say whether the partnership is accepted (true) or declined (false)")
    if accept:
        _seat_partner(state, name)
    else:
        state.partner_offers.append(name)


def on_partner_draw(state: TableState, event: dict[str, Any]) -> None:
    """After everyone declined: the partner drawn among the team but the captain."""
    name = seated_player(state, event.get("player"))
    if state.game is not None or not state.needs_partner():
        raise TableError("no partnership is to be drawn now")
    if state.next_partner_offer() is not None:
        raise TableError("the partnership must first be offered to {name}", name=state.next_partner_offer())
    if name not in state.seats.line:
        raise TableError("the partner is drawn among the team other than the captain, not {name}", name=name)
    _seat_partner(state, name)


def _seat_partner(state: TableState, name: str) -> None:
    seats = state.seats
    if name == seats.captain:
        seats.captain = None
    else:
        seats.line.remove(name)
    seats.partner = name
    seats.fill()
    state.partner_offers = []


HANDLERS: dict[str, Callable[[TableState, dict[str, Any]], None]] = {
    "join": on_join,
    "leave": on_leave,
    "order_roll": on_order_roll,
    "order": on_order,
    "settings": on_settings,
    "partner": on_partner,
    "partner_draw": on_partner_draw,
    "double": on_double,
    "take": on_answer,
    "drop": on_answer,
    "beaver": on_answer,
    "raccoon": on_answer,
    "extra": on_extra,
    "opening_roll": on_opening_roll,
    "roll": on_roll,
    "move": on_move,
    "result": on_result,
    "correct": on_correct,
    "deal": on_deal,
    "proxy": on_proxy,
}
