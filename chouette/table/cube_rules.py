"""The cube events of a game: doubles, answers, beavers and raccoons, extras (docs/rules.md 2.4 to 2.7).

The box doubles some members' cubes at one moment, or a member (the captain, with a single
cube) doubles the box; the engine's cube judges every double and answer, and its reasons are
said with the sides named as players. Each answer stands at once (docs/rules.md 2.5): a drop is
final and booked, and with a cube for each member a take or a beaver is applied (the box
answers that beaver at once). Once every member has answered the box's double come
all-but-one, a single cube's takes and the captain's beaver, one change of captain for all
its drops, and the window for extras. The game ends when no cube is live, extras included. Handlers as in
:mod:`chouette.table.rules`: check the event, raise TableError, or change the state in place.
"""

from __future__ import annotations

from typing import Any, TypeVar

from chouette.engine import Cube, CubeError
from chouette.engine.cube import SIDE_WORDS
from chouette.engine.errors import Phrase
from chouette.table.cubes import (
    BOX_SIDE,
    DROPPED,
    LIVE,
    MEMBER_SIDE,
    WON,
    BoxDouble,
    Extra,
    MemberCube,
)
from chouette.table.errors import TableError
from chouette.table.game import SCORESHEET, Game
from chouette.table.game_rules import (
    BOX,
    MEMBER,
    close_windows,
    end_if_no_cube,
    game_in_progress,
    listed_words,
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


def _extra(state: TableState, game: Game, giver: object) -> int:
    """The index of the extra cube given by ``giver`` in this game."""
    name = seated_player(state, giver, "extra cube's giver")
    for index, extra in enumerate(game.extras):
        if extra.giver == name:
            return index
    raise TableError("{name} has given no extra cube in this game", name=name)


def _double_extra(state: TableState, game: Game, doubler: str, giver: object) -> None:
    """The owner of an extra cube redoubles it: the taker on the team's turn, the giver
    (on the box's side of that cube) on the box's."""
    no_offer_waiting(game)
    index = _extra(state, game, giver)
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


def _answer_extra(state: TableState, game: Game, giver: object, answer: str) -> None:
    """The holder doubled on an extra cube answers: take, drop, beaver or raccoon."""
    index = _extra(state, game, giver)
    extra = game.extras[index]
    side = extra.cube.to_answer
    if side is None:
        raise TableError("there is no double to {answer} on {name}'s extra cube",
                         answer=answer, name=extra.giver)
    _check_allowed(state, answer)
    game.extras[index] = _act(extra, side, answer, extra.giver, extra.taker)
    end_if_no_cube(state, game)


Holder = TypeVar("Holder", MemberCube, Extra)


def _act(holder: Holder, side: int, answer: str, box_side: str | Phrase,
         member_side: str) -> Holder:
    """``side`` answers the offer waiting on a member's cube or an extra cube.

    Raises:
        TableError: the engine's cube refuses it (its reason, with the sides named).
    """
    try:
        if answer == "drop":
            return holder.dropped(side)
        action = {"take": holder.cube.take, "beaver": holder.cube.beaver,
                  "raccoon": holder.cube.raccoon}[answer]
        return holder.with_cube(action(side))
    except CubeError as exc:
        raise TableError(_cube_words(exc, box_side, member_side)) from exc


def _check_allowed(state: TableState, answer: str) -> None:
    if answer == "beaver" and not state.settings.beavers:
        raise TableError("beavers are not played at this table")
    if answer == "raccoon" and not state.settings.raccoons:
        raise TableError("raccoons are not played at this table")


def _cube_words(exc: CubeError, box_side: str | Phrase, member_side: str | Phrase) -> Phrase:
    """The engine's message with the sides named as players."""
    names = {BOX_SIDE: box_side, MEMBER_SIDE: member_side}

    def named(value: object) -> object:
        if not isinstance(value, Phrase):
            return value
        if value.template == SIDE_WORDS:
            return names.get(value.params["side"], value)
        return Phrase(value.template, **{key: named(v) for key, v in value.params.items()})

    phrase = named(exc.phrase)
    assert isinstance(phrase, Phrase)
    return phrase


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


def on_answer(state: TableState, event: dict[str, Any]) -> None:
    """Take, drop, beaver or raccoon: the side that must answer a cube acts."""
    game = state.game
    answer = event["type"]
    if game is not None and "extra" in event:
        _answer_extra(state, game, event.get("extra"), answer)
        return
    if game is None or not game.pending:
        named = event.get("cube")
        cube = game.cubes.get(named) if game is not None and isinstance(named, str) else None
        if answer == "raccoon":
            raise TableError("there is no beaver to raccoon")
        if cube is not None and (cube.status in (DROPPED, WON) or cube.turned):
            raise TableError(_not_waiting(cube.member, {}, cube))  # a tap from an older page
        raise TableError("there is no double to {answer}", answer=answer)
    target = event.get("cube")
    single = state.settings.cube_mode == "single"
    box_double = game.box_double
    if box_double is not None:
        if single:
            _answer_box_double(state, game, box_double,
                               _single_answerer(state, box_double, target), answer)
            return
        member = _member_cube(state, target)
        if member in box_double.waiting:
            _answer_box_double(state, game, box_double, member, answer)
            return
        if member not in game.pending:
            raise TableError(_not_waiting(member, box_double.answers, game.cubes.get(member)))
        # The box answers a beaver (the member a raccoon) without waiting for the other
        # members' answers to the same double (docs/rules.md 2.5).
        members = [member]
    elif single:
        if target != "team":
            raise TableError('with a single cube the team\'s cube is answered as one: cube "team"')
        members = list(game.pending)
    else:
        member = _member_cube(state, target)
        if member not in game.pending:
            raise TableError(_not_waiting(member, dict(game.box_answers), game.cubes.get(member)))
        members = [member]
    _check_allowed(state, answer)
    sides = {m: game.cubes[m].cube.to_answer for m in members}
    for member in members:
        _answer(state, game, member, answer)
    if answer == "drop":
        won = [m for m in members if sides[m] == BOX_SIDE]
        lost = [m for m in members if sides[m] == MEMBER_SIDE]
        if game.box_double is None:
            seats_after_drops(state, game, won, lost)
        elif game.seat_captain in won:
            # The seats move once every member has answered the box's double; the
            # captain's win over the box stands at once.
            game.captain_won_early = True
    if not game.pending:
        game.member_doubles, game.box_answers = [], {}
    end_if_no_cube(state, game)


def _member_cube(state: TableState, target: object) -> str:
    """The member whose cube is answered, when each member has his own cube."""
    if isinstance(target, str) and target.strip().lower() in ("box", "team"):
        raise TableError("each member has a cube of their own at this table: name the member whose "
                         "cube is answered, not {cube!r}", cube=target)
    return seated_player(state, target, "cube")


def _single_answerer(state: TableState, box_double: BoxDouble, target: object) -> str:
    """The member answering the box's double of a single cube (each answers for himself)."""
    waiting = listed_words(list(box_double.waiting))
    if isinstance(target, str) and target.strip().lower() in ("box", "team"):
        if "beaver" in box_double.answers.values():
            raise TableError("the box answers the team's beaver once every member has answered "
                             "the box's double (waiting: {waiting})", waiting=waiting)
        raise TableError("each member answers the box's double alone: name the member's cube "
                         "(waiting: {waiting})", waiting=waiting)
    member = seated_player(state, target, "cube")
    if member not in box_double.waiting:
        if box_double.answers.get(member) == "beaver":
            raise TableError("the box answers the team's beaver once every member has answered "
                             "the box's double (waiting: {waiting})", waiting=waiting)
        raise TableError(_not_waiting(member, box_double.answers,
                                      state.game.cubes.get(member) if state.game else None))
    return member


def _not_waiting(member: str, answers: dict[str, Any], cube: MemberCube | None = None) -> Phrase:
    """Why no answer waits on ``member``'s cube: answered already (in this double, or a
    double of this game that was dropped or taken: a second tap from an older page), or
    never doubled."""
    if member in answers or (cube is not None and (cube.status in (DROPPED, WON) or cube.turned)):
        return Phrase("{name}'s cube has already been answered", name=member)
    return Phrase("{name}'s cube was not doubled", name=member)


def _answer(state: TableState, game: Game, member: str, answer: str) -> None:
    """One cube's answer, applied at once (a member's double, a beaver, a raccoon)."""
    cube = game.cubes[member]
    side = cube.cube.to_answer
    assert side is not None
    offer = cube.cube.offer
    if side == BOX_SIDE and member in game.member_doubles and offer and offer.kind == "double":
        _same_value_same_action(state, game, member, answer)
        game.box_answers[member] = (answer, cube.value)
    game.cubes[member] = _act(cube, side, answer, Phrase("the box"), member)


def _answer_box_double(state: TableState, game: Game, box_double: BoxDouble, member: str,
                       answer: str) -> None:
    """A member answers the box's double of his cube.

    Each answer stands at once (docs/rules.md 2.5): a drop is final and booked now, and with a cube
    for each member a take or a beaver is applied now (the box may answer the beaver). With
    a single cube takes and the captain's beaver wait for every member's answer (docs/rules.md 2.4).
    """
    if answer == "raccoon":
        raise TableError("there is no beaver to raccoon: answer the box's double")
    _check_allowed(state, answer)
    single = state.settings.cube_mode == "single"
    if single and answer == "beaver":
        captain = next((m for m in _best_placed(state, game)
                        if m in box_double.cubes and box_double.answers.get(m) != "drop"), member)
        if member != captain:
            raise TableError("with a single cube a beaver is the captain's decision: {captain} "
                             "beavers for the team, {name} takes or drops",
                             captain=captain, name=member)
    box_double.answers[member] = answer
    if answer == "drop" or not single:
        game.cubes[member] = _act(game.cubes[member], MEMBER_SIDE, answer, Phrase("the box"),
                                  member)
    if not box_double.waiting:
        _resolve_box_double(state, game, box_double)


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


def _same_value_same_action(state: TableState, game: Game, member: str, answer: str) -> None:
    """House rule: cubes of one value doubled at one moment are all taken or all dropped."""
    if not state.settings.same_value_same_action:
        return
    value = game.cubes[member].value
    for other, (given, other_value) in game.box_answers.items():
        if other_value == value and (given == "drop") != (answer == "drop"):
            raise TableError("same value, same action: the box answered {other}'s cube with "
                             "{answer}, so {name}'s must be answered the same way",
                             other=other, answer=given, name=member)


def _resolve_box_double(state: TableState, game: Game, box_double: BoxDouble) -> None:
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
            # His take becomes a drop at the value before the double, booked now; the
            # earlier drops stay as booked (and a box's drop of his beaver stood already).
            game.cubes[taker] = _forced_drop(game, box_double, taker)
            takers, droppers = [], droppers + [taker]
    if single:
        # The captain's beaver decides for every member who took (docs/rules.md 2.4).
        first_taker = next((m for m in _best_placed(state, game) if m in takers), None)
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
        # His answer was applied at once: drop the cube as it was before the double.
        was = box_double.before.get(member)
        cube = (MemberCube.from_dict(was) if was is not None
                else MemberCube(member, Cube(box_double.pre[member])))
        cube = cube.with_cube(cube.cube.double(BOX_SIDE))
    return cube.dropped(MEMBER_SIDE)


def captain_leaves(state: TableState, game: Game) -> None:
    """The seat captain, his cube dropped, leaves before every member has answered the box's
    double: his seat waits for those answers, and nobody else moves until then (rules 2.4,
    2.5). The answers then name the acting captain as if he had stayed, without him."""
    game.captain_left = True
    state.seats.captain = None


def _best_placed(state: TableState, game: Game) -> list[str]:
    """Members of this game in seat order: the captain, then the line."""
    order = [game.seat_captain] + state.seats.line
    return [m for m in order if m in game.cubes]


def _next_acting_captain(state: TableState, game: Game, *, move_old_to_end: bool) -> None:
    """The best-placed live member takes over; a dropping seat captain goes to the end
    (unless he has left the table, his seat waiting for this moment)."""
    live = [m for m in _best_placed(state, game) if game.cubes[m].status == LIVE]
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
    """A teammate gives the lone taker an extra 2-cube and pays him one point (docs/rules.md 2.7)."""
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
