"""The box's double once every member has answered it, the seats after drops, and extras.

Once every member has answered the box's double come all-but-one, a single cube's takes and the
captain's beaver, one change of captain for all its drops, and the window for extras
(docs/rules.md 2.4, 2.5, 2.7). The game ends when no cube is live, extras included.
"""

from __future__ import annotations

from typing import Any

from chouette.engine import Cube
from chouette.table.cubes import BOX_SIDE, DROPPED, LIVE, MEMBER_SIDE, WON, BoxDouble, Extra, MemberCube
from chouette.table.errors import TableError
from chouette.table.game import Game
from chouette.table.game_rules import end_if_no_cube, seated_player
from chouette.table.tablestate import TableState


def resolve_box_double(state: TableState, game: Game, box_double: BoxDouble) -> None:
    """Every member answered the box's double: all-but-one, a single cube's takes and
    beaver, one change of captain for all its drops, the window for extras."""
    settings = state.settings
    single = settings.cube_mode == "single"
    answers = box_double.answers
    takers = [m for m in box_double.cubes if answers[m] != "drop"]
    droppers = [m for m in box_double.cubes if answers[m] == "drop"]
    lone = len(takers) == 1 and bool(droppers) and box_double.all_live
    # The players of this game: the box side and the members who started it.
    players = 1 + (state.seats.partner is not None) + len(game.members)
    # Extras replace the forced drop for the box's initial double (docs/rules.md 2.7).
    extras_instead = settings.extras and box_double.initial
    game.box_double = None
    if (lone and settings.all_but_one != "off" and not extras_instead
            and players >= settings.all_but_one_min_players):
        taker = takers[0]
        forced = settings.all_but_one == "forced_drop" or answers[taker] != "beaver"
        if forced and game.cubes[taker].is_live:
            # The taker's take becomes a drop at the value before the double, booked now; the
            # earlier drops stay as booked (and a box's drop of their beaver stood already).
            game.cubes[taker] = _forced_drop(game, box_double, taker)
            takers, droppers = [], droppers + [taker]
    if single:
        # The captain's beaver decides for every member who took (docs/rules.md 2.4).
        first_taker = next((m for m in best_placed(state, game) if m in takers), None)
        beaver_all = first_taker is not None and answers[first_taker] == "beaver"
        for member in takers:
            cube = game.cubes[member]
            action = cube.cube.beaver if beaver_all else cube.cube.take
            game.cubes[member] = cube.with_cube(action(MEMBER_SIDE))
    won = [m for m in box_double.cubes if game.cubes[m].status == WON]
    lost = [m for m in box_double.cubes if game.cubes[m].status == DROPPED]
    seats_after_drops(state, game, won, lost)
    if extras_instead and lone and takers and game.cubes[takers[0]].is_live:
        game.extras_open = (takers[0], tuple(droppers))
    end_if_no_cube(state, game)


def _forced_drop(game: Game, box_double: BoxDouble, member: str) -> MemberCube:
    """The lone taker's cube dropped at the value before the box's double (all-but-one)."""
    cube = game.cubes[member]
    offer = cube.cube.offer
    if offer is None or offer.kind != "double" or cube.cube.to_answer != MEMBER_SIDE:
        # The member's answer was applied at once: drop the cube as it was before the double.
        was = box_double.before.get(member)
        cube = (MemberCube.from_dict(was) if was is not None
                else MemberCube(member, Cube(box_double.pre[member])))
        cube = cube.with_cube(cube.cube.double(BOX_SIDE))
    return cube.dropped(MEMBER_SIDE)


def seats_after_drops(state: TableState, game: Game, won: list[str], lost: list[str]) -> None:
    """Seats after cubes were dropped: by the box (``won``) or by members (``lost``).

    Whole answers first, then one change of captain: a single-cube team answering as one
    moves its captain once.
    """
    if game.seat_captain in won:
        game.captain_won_early = True
    if game.seat_captain in lost and not game.captain_won_early:
        _next_acting_captain(state, game, move_old_to_end=True)
    elif game.acting_captain in won + lost:
        _next_acting_captain(state, game, move_old_to_end=False)


def captain_leaves(state: TableState, game: Game) -> None:
    """The seat captain, their cube dropped, leaves before every member has answered the box's
    double: their seat waits for those answers, and nobody else moves until then (rules 2.4,
    2.5). The answers then name the acting captain as if the captain had stayed, without them."""
    game.captain_left = True
    state.seats.captain = None


def best_placed(state: TableState, game: Game) -> list[str]:
    """Members of this game in seat order: the captain, then the line."""
    order = [game.seat_captain] + state.seats.line
    return [m for m in order if m in game.cubes]


def _next_acting_captain(state: TableState, game: Game, *, move_old_to_end: bool) -> None:
    """The best-placed live member takes over; a dropping seat captain goes to the end
    (unless they have left the table, their seat waiting for this moment)."""
    live = [m for m in best_placed(state, game) if game.cubes[m].status == LIVE]
    if not live:
        return  # nobody left: the game ends
    new = live[0]
    if move_old_to_end:
        seats = state.seats
        seats.line.remove(new)
        if not game.captain_left:
            seats.line.append(game.seat_captain)
        seats.captain = new
        game.seat_captain = new
        game.captain_left = False
    game.acting_captain = new


def on_extra(state: TableState, event: dict[str, Any]) -> None:
    """A teammate gives the lone taker an extra 2-cube and pays them one point (docs/rules.md 2.7)."""
    game = state.game
    if not state.settings.extras:
        raise TableError("extras are not played at this table")
    if game is None or game.extras_open is None:
        raise TableError("an extra is given only right after a lone take of the box's first double")
    giver = seated_player(state, event.get("from"), "giver")
    taker = seated_player(state, event.get("to"), "taker")
    lone, givers = game.extras_open
    if taker != lone:
        raise TableError("the extra goes to the lone taker, {name}", name=lone)
    if giver not in givers:
        raise TableError("{name} cannot give an extra: only a member who dropped that double can", name=giver)
    if any(e.giver == giver for e in game.extras):
        raise TableError("{name} has already given an extra", name=giver)
    game.extras.append(Extra(giver, taker))
