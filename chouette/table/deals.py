"""Deals and proxies during a game (docs/rules.md 2.12; the log events in docs/log-format.md 4.7).

A **deal** settles one member's cube with the box for an agreed amount, in points (halves at
least) or in cents: the member is out of the game as after a drop, the amount is booked at
once, the game goes on while any cube is live. With the captain the organizer also says who
keeps the seat: ``"box"`` (the box kept it: the captain goes at once to the end of the line
and the best-placed live member becomes captain, as after a captain's drop) or ``"captain"``
(the captain takes the box at the end of the game: as when the box drops the captain's cube,
the best-placed live member plays on as acting captain and their result does not move the
seats).

A **proxy** hands an absent member's cube decisions for the rest of the game to a teammate
still playing; the rules do not change (the money stays the absent member's): only who may
make those decisions does (``chouette.services.deciders.decider``).

Handlers as in :mod:`chouette.table.rules`: check the event, raise TableError, or change the
state in place.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from chouette.table.box_double import seats_after_drops
from chouette.table.cubes import DEALT, DROPPED, LIVE, WON, Deal
from chouette.table.errors import TableError
from chouette.table.game import KINDS, Game
from chouette.table.game_rules import (
    close_windows,
    end_if_no_cube,
    game_in_progress,
    no_offer_waiting,
    seated_player,
)

if TYPE_CHECKING:
    from chouette.table.tablestate import TableState

#: Who keeps the seat when the captain settles: the box, or the captain (who takes the box).
SEATS = ("box", "captain")
#: Who wins a deal's amount.
WINNERS = ("box", "member")
#: The most a cube can be worth at the end of a game: its value times a backgammon.
BACKGAMMON = KINDS["backgammon"]


def _in_game_member(state: TableState, game: Game, value: object, what: str) -> str:
    """A member of the game in progress named in an event (not the box, not the team)."""
    if isinstance(value, str) and value.strip().lower() in ("box", "team"):
        raise TableError("name the member whose cube is settled, not {cube!r}", cube=value)
    name = seated_player(state, value, what)
    if name not in game.cubes:
        if name in (state.seats.box, state.seats.partner):
            raise TableError("{name} plays for the box side: a deal is between a member and "
                             "the box", name=name)
        raise TableError("{name} does not play this game", name=name)
    return name


def _half_points(value: object) -> int:
    """Points in halves (1, 1.5, "2.5", "1,5") as a whole number of half points.

    Raises:
        TableError: not a number, not in halves, or negative.
    """
    given = value
    if isinstance(value, str):
        text = value.strip().replace(",", ".")
        try:
            value = float(text) if text and len(text) < 20 else None
        except ValueError:
            value = None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise TableError("the agreed points are a number in halves, like 1.5, not {value!r}",
                         value=given)
    if value < 0:
        raise TableError("the agreed amount cannot be negative: say who wins it instead")
    doubled = value * 2
    if doubled != int(doubled):
        raise TableError("the agreed points are whole or halves (like 1.5), not {value}",
                         value=value)
    return int(doubled)


def _cents(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TableError("the agreed cents are a whole number, not {value!r}", value=value)
    if value < 0:
        raise TableError("the agreed amount cannot be negative: say who wins it instead")
    return value


def _pair_stake(state: TableState, game: Game, member: str) -> int:
    """The stake the member plays the box at in this game (the lower of the two)."""
    if not state.settings.per_player_stakes:
        return state.settings.stake_cents
    box = state.seats.box or ""
    stakes = game.stakes
    default = state.settings.stake_cents
    return min(stakes.get(box, default), stakes.get(member, default))


def on_deal(state: TableState, event: dict[str, Any]) -> None:
    """A member and the box settle the member's cube for an agreed amount; the game goes on."""
    if state.game is None:
        raise TableError("no game is in progress: a deal settles a cube during a game")
    game = game_in_progress(state)
    member = _in_game_member(state, game, event.get("cube"), "cube")
    cube = game.cubes[member]
    if cube.status == DEALT:
        raise TableError("{name}'s cube is settled already", name=member)
    if cube.status in (DROPPED, WON):
        raise TableError("{name}'s cube was dropped: it is settled already", name=member)
    no_offer_waiting(game)
    winner = event.get("winner")
    if winner not in WINNERS:
        raise TableError('say who wins the agreed amount: "box" or "member"')
    has_points, has_cents = "points" in event, "cents" in event
    if has_points == has_cents:
        raise TableError("a deal is agreed in points or in cents: give one of them")
    most = cube.value * BACKGAMMON
    sign = 1 if winner == "member" else -1
    if has_points:
        half = _half_points(event.get("points"))
        if half > most * 2:
            raise TableError("{name}'s cube is at {value}: a deal is at most {most} points "
                             "(the cube's value times a backgammon)",
                             name=member, value=cube.value, most=most)
        deal = Deal(member, cube.value, half_points=sign * half)
    else:
        cents = _cents(event.get("cents"))
        stake = _pair_stake(state, game, member)
        if cents > most * stake:
            raise TableError("{name}'s cube is at {value}: a deal is at most {most} points, "
                             "{cents} cents at this stake", name=member, value=cube.value,
                             most=most, cents=most * stake)
        deal = Deal(member, cube.value, cents=sign * cents)
    seat = event.get("seat")
    captain = member == game.seat_captain and not game.captain_won_early
    if captain and seat not in SEATS:
        raise TableError('{name} is the captain: say who keeps the seat, "box" (the box kept '
                         'it) or "captain" ({name} takes the box)', name=member)
    if not captain and seat is not None:
        raise TableError("only a deal with the captain ({name}) decides the seat",
                         name=game.seat_captain)
    close_windows(game)
    game.cubes[member] = replace(cube, status=DEALT, settled=0)
    game.deals[member] = replace(deal, seat=seat if captain else None)
    if captain:
        # As the box's drop (the captain takes the box) or the captain's drop (the box kept
        # the seat): the seats follow that drop's rules (docs/rules.md 2.4, 2.5).
        seats_after_drops(state, game, [member] if seat == "captain" else [],
                     [member] if seat == "box" else [])
    elif member == game.acting_captain:
        seats_after_drops(state, game, [member], [])
    end_if_no_cube(state, game)


def on_proxy(state: TableState, event: dict[str, Any]) -> None:
    """An absent member hands their cube decisions for the rest of the game to a teammate."""
    game = game_in_progress(state)
    absent = seated_player(state, event.get("player"), "absent member")
    if absent not in game.cubes:
        raise TableError("{name} does not play this game", name=absent)
    if game.cubes[absent].status != LIVE:
        raise TableError("{name}'s cube is out of play: there is no decision to hand over",
                         name=absent)
    if absent == game.acting_captain:
        raise TableError("{name} is the captain, who plays the board for the team: the decisions "
                         "cannot be handed over", name=absent)
    if absent in game.proxies:
        raise TableError("{name} has already handed the decisions to {proxy}",
                         name=absent, proxy=game.proxies[absent])
    if absent in game.proxies.values():
        raise TableError("{name} decides for a teammate in this game and cannot step away too",
                         name=absent)
    proxy = seated_player(state, event.get("to"), "proxy")
    if proxy == absent:
        raise TableError("a proxy is another teammate, not {name}", name=absent)
    if proxy not in game.cubes or game.cubes[proxy].status != LIVE:
        raise TableError("{name} is not a teammate still playing this game: only one can be "
                         "a proxy", name=proxy)
    if proxy in game.proxies:
        raise TableError("{name} has handed their own decisions to {proxy}",
                         name=proxy, proxy=game.proxies[proxy])
    game.proxies[absent] = proxy
