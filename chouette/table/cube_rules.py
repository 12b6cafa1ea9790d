"""The doubles of a game (docs/rules.md 2.4 to 2.7), and the limit of a cube.

The box doubles some members' cubes at one moment, or a member (the captain, with a single
cube) doubles the box, or the holder of an extra cube redoubles it; the engine's cube judges
every double. The answers are :mod:`chouette.table.cube_answers`; what follows once every
member has answered the box's double is :mod:`chouette.table.box_double`. Handlers as in
:mod:`chouette.table.rules`: check the event, raise TableError, or change the state in place.
"""

from __future__ import annotations

from typing import Any

from chouette.table.cubes import BOX_SIDE, LIVE, MEMBER_SIDE, BoxDouble, Extra, MemberCube
from chouette.table.errors import TableError
from chouette.table.game import SCORESHEET, Game
from chouette.table.game_rules import (
    BOX,
    MEMBER,
    close_windows,
    game_in_progress,
    no_offer_waiting,
    seated_player,
)
from chouette.table.tablestate import TableState

#: The highest cube a table plays (GNU Backgammon's own limit, 2**12). With the highest stake
#: (``settings.MAX_STAKE_CENTS``) and a backgammon, one cube is at most 4096 x 3 x 100,000,000
#: cents, about 1.2 * 10**12: a 64-bit ledger holds millions of such games, and the points
#: stay far inside 32 bits. A double, beaver, raccoon or automatic double past it is refused.
MAX_CUBE = 4096
#: The events that can raise a cube (a take or a drop may settle the box's double with beavers).
CUBE_EVENTS = frozenset({"double", "take", "drop", "beaver", "raccoon", "opening_roll", "extra"})


def _highest(cube: MemberCube | Extra) -> int:
    """A cube's value, or the value offered on it when that is higher."""
    offer = cube.cube.offer
    return max(cube.value, offer.value if offer is not None else 0)


def check_cube_limit(game: Game) -> None:
    """Refuse a game whose cubes (or the offers on them) went past MAX_CUBE.

    Raises:
        TableError: names the cube, the value it would reach, and the limit.
    """
    for member, cube in game.cubes.items():
        if _highest(cube) > MAX_CUBE:
            raise TableError("a cube goes no higher than {max}: {name}'s cube would reach {value}, "
                             "more money than the ledger can keep to the cent",
                             max=MAX_CUBE, name=member, value=_highest(cube))
    for extra in game.extras:
        if _highest(extra) > MAX_CUBE:
            raise TableError("a cube goes no higher than {max}: the extra cube {giver} gave {taker} "
                             "would reach {value}, more money than the ledger can keep to the cent",
                             max=MAX_CUBE, giver=extra.giver, taker=extra.taker, value=_highest(extra))


def on_double(state: TableState, event: dict[str, Any]) -> None:
    """The box doubles some members' cubes, or a member (the captain, single-cube) the box."""
    game = game_in_progress(state)
    if state.settings.online and not game.is_board:
        # Online the board is always played: a double before it would make a score-sheet game.
        raise TableError("at a table that plays online the cube waits for the opening roll: "
                         "a double comes at the start of a turn on the board")
    by = event.get("by")
    single = state.settings.cube_mode == "single"
    if by == "box":
        no_offer_waiting(game)
        _board_turn(game, BOX, "double")
        cubes = event.get("cubes")
        if cubes is None or single:
            targets = game.live
            if single and cubes is not None and sorted(_names(state, cubes)) != sorted(targets):
                raise TableError("with a single cube the box doubles every member still playing")
        else:
            targets = _names(state, cubes)
            if not targets:
                raise TableError("name the cubes the box doubles")
        if not targets:
            raise TableError("no member's cube is in play: the box has no cube to double")
        for member in targets:
            if _cube(game, member).cube.double_refusal(BOX_SIDE) is not None:
                raise TableError("the box cannot double {name}: {name} owns that cube", name=member)
        close_windows(game)
        before = {m: game.cubes[m].to_dict() for m in targets}
        for member in targets:
            cube = game.cubes[member]
            game.cubes[member] = cube.with_cube(cube.cube.double(BOX_SIDE))
        game.box_double = BoxDouble(targets, {m: game.cubes[m].value for m in targets},
                                    all_live=sorted(targets) == sorted(game.live),
                                    initial=not game.box_doubled, before=before)
        game.box_doubled = True
        game.doubles += 1
        game.mode = game.mode or SCORESHEET
        return
    member = seated_player(state, by, "doubler")
    if "extra" in event:
        _double_extra(state, game, member, event.get("extra"))
        return
    if game.pending_extras:
        no_offer_waiting(game)
    if game.pending:
        # Several members may double at the same moment, before the box answers any.
        same_moment = (not single and not game.box_answers
                       and set(game.pending) <= set(game.member_doubles))
        if member in game.member_doubles:
            raise TableError("{name} has already doubled", name=member)
        if not same_moment:
            no_offer_waiting(game)
    else:
        game.member_doubles, game.box_answers = [], {}
    _board_turn(game, MEMBER, "double")
    if single:
        if member != game.acting_captain:
            raise TableError("with a single cube only the captain ({name}) doubles for the team",
                             name=game.acting_captain)
        targets = game.live
        if not targets:
            raise TableError("no member's cube is in play: the team has no cube to double")
    else:
        targets = [member]
    for name in targets:
        if _cube(game, name).cube.double_refusal(MEMBER_SIDE) is not None:
            raise TableError("{name} cannot double: the box owns that cube", name=name)
    close_windows(game)
    for name in targets:
        cube = game.cubes[name]
        game.cubes[name] = cube.with_cube(cube.cube.double(MEMBER_SIDE))
    game.member_doubles += targets
    game.doubles += 1
    game.mode = game.mode or SCORESHEET


def extra_index(state: TableState, game: Game, giver: object) -> int:
    """The index of the extra cube given by ``giver`` in this game.

    Raises:
        TableError: ``giver`` is not seated, or gave no extra cube in this game.
    """
    name = seated_player(state, giver, "extra cube's giver")
    for index, extra in enumerate(game.extras):
        if extra.giver == name:
            return index
    raise TableError("{name} has given no extra cube in this game", name=name)


def _double_extra(state: TableState, game: Game, doubler: str, giver: object) -> None:
    """The owner of an extra cube redoubles it: the taker on the team's turn, the giver
    (on the box's side of that cube) on the box's."""
    no_offer_waiting(game)
    index = extra_index(state, game, giver)
    extra = game.extras[index]
    if doubler not in (extra.giver, extra.taker):
        raise TableError("{name} does not hold the extra cube {giver} gave {taker}",
                         name=doubler, giver=extra.giver, taker=extra.taker)
    if extra.status != LIVE:
        raise TableError("that extra cube is out of play")
    side = MEMBER_SIDE if doubler == extra.taker else BOX_SIDE
    _board_turn(game, MEMBER if side == MEMBER_SIDE else BOX, "double")
    if extra.cube.double_refusal(side) is not None:
        raise TableError("{name} cannot double the extra cube: the other side owns it", name=doubler)
    close_windows(game)
    game.extras[index] = extra.with_cube(extra.cube.double(side))
    game.doubles += 1


def _names(state: TableState, cubes: object) -> list[str]:
    if not isinstance(cubes, list):
        raise TableError("the cubes are a list of member names")
    names = [seated_player(state, c, "cube") for c in cubes]
    if len(set(names)) != len(names):
        raise TableError("a cube is named twice")
    return names


def _cube(game: Game, member: str) -> MemberCube:
    if member not in game.cubes:
        raise TableError("{name} does not play this game", name=member)
    cube = game.cubes[member]
    if not cube.is_live:
        raise TableError("{name}'s cube is out of play in this game", name=member)
    return cube


def _board_turn(game: Game, side: str, action: str) -> None:
    """In board mode a double comes at the start of the doubler's own turn, before rolling."""
    if not game.is_board:
        return
    if game.on_roll != side:
        if game.on_roll == BOX:
            raise TableError("it is the box's turn: only the box may {action} now", action=action)
        raise TableError("it is the team's turn: only the team may {action} now", action=action)
    if game.dice is not None:
        raise TableError("a double comes before the roll; the dice are already rolled")
