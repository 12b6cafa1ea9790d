"""The answers to a cube: take, drop, beaver and raccoon (docs/rules.md 2.4 to 2.7).

Each answer stands at once (docs/rules.md 2.5): a drop is final and booked, and with a cube for
each member a take or a beaver is applied (the box answers that beaver at once). With a single
cube, takes and the captain's beaver wait for every member's answer to the box's double
(:mod:`chouette.table.box_double`). The engine's cube judges every answer, and its reasons are
said with the sides named as players.
"""

from __future__ import annotations

from typing import Any, TypeVar

from chouette.engine import CubeError
from chouette.engine.cube import SIDE_WORDS
from chouette.engine.errors import Phrase
from chouette.table.box_double import best_placed, resolve_box_double, seats_after_drops
from chouette.table.cube_rules import MAX_CUBE, extra_index
from chouette.table.cubes import BOX_SIDE, DROPPED, MEMBER_SIDE, WON, BoxDouble, Extra, MemberCube
from chouette.table.errors import TableError
from chouette.table.game import Game
from chouette.table.game_rules import end_if_no_cube, listed_words, seated_player
from chouette.table.tablestate import TableState


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
    """The member whose cube is answered, when each member has their own cube."""
    if isinstance(target, str) and target.strip().lower() in ("box", "team"):
        raise TableError("each member has a cube of their own at this table: name the member whose "
                         "cube is answered, not {cube!r}", cube=target)
    return seated_player(state, target, "cube")


def _single_answerer(state: TableState, box_double: BoxDouble, target: object) -> str:
    """The member answering the box's double of a single cube (each answers for themselves)."""
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
    """A member answers the box's double of their cube.

    Each answer stands at once (docs/rules.md 2.5): a drop is final and booked now, and with a cube
    for each member a take or a beaver is applied now (the box may answer the beaver). With
    a single cube takes and the captain's beaver wait for every member's answer (docs/rules.md 2.4).
    """
    if answer == "raccoon":
        raise TableError("there is no beaver to raccoon: answer the box's double")
    _check_allowed(state, answer)
    single = state.settings.cube_mode == "single"
    if single and answer == "beaver":
        captain = next((m for m in best_placed(state, game)
                        if m in box_double.cubes and box_double.answers.get(m) != "drop"), member)
        if member != captain:
            raise TableError("with a single cube a beaver is the captain's decision: {captain} "
                             "beavers for the team, {name} takes or drops",
                             captain=captain, name=member)
        # Held until every member has answered: refused now if it would pass the cube's limit,
        # or no later answer could stand (each would apply it).
        offer = game.cubes[member].cube.offer
        if offer is not None and 2 * offer.value > MAX_CUBE:
            raise TableError("a cube goes no higher than {max}: {name}'s cube would reach {value}, "
                             "more money than the ledger can keep to the cent",
                             max=MAX_CUBE, name=member, value=2 * offer.value)
    box_double.answers[member] = answer
    if answer == "drop" or not single:
        game.cubes[member] = _act(game.cubes[member], MEMBER_SIDE, answer, Phrase("the box"),
                                  member)
    if not box_double.waiting:
        resolve_box_double(state, game, box_double)


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


def _answer_extra(state: TableState, game: Game, giver: object, answer: str) -> None:
    """The holder doubled on an extra cube answers: take, drop, beaver or raccoon."""
    index = extra_index(state, game, giver)
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
