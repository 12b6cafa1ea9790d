"""The decisions of a table's board games, ready for GNU Backgammon to judge (issue 27).

A walk through the table's log, like the records' (``chouette.records.tables``), lists every
decision of every board game that was not voided:

- every checker play, attributed to whoever moved: the box, or the captain or acting captain
  who played it for the team. A play is judged with the cube the game's record holds: the one
  cube of a single-cube table, a cube in the middle at 1 with a cube for each member (no one
  cube stands for several at once);
- every cube decision of every member's own cube against the box, each cube judged as a money
  game at its value and owner (the Jacoby rule as the table set it for that game): at each turn
  the side on roll could double a cube, its owner (the box, for every cube it could turn; the
  member, for their own) decided to double it or not; each double offered was taken, dropped
  or (where the table plays beavers) beavered by the side it was offered to; a beaver is answered
  by the first doubler (take, drop or, where allowed, raccoon: ``level`` 1), a raccoon by the
  beaverer (``level`` 2). With a single cube the box's double is one decision (the one cube),
  the team's is the captain's, and so are the team's beaver and its answer to the box's;
- the extra cubes of a lone take (docs/rules.md 2.7): each member who could give one gave it
  or not (``extra``), and each extra's own doubles and answers, between its giver (the box's
  side) and its taker.

Pure: the standard library, the engine and the table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from chouette.analysis.kinds import (
    ANSWER,
    ANSWERS,
    CENTRE,
    DOUBLE,
    EXTRA,
    MOVE,
    ON_ROLL,
    OPPONENT,
    Decision,
)
from chouette.engine import Move, Position, apply_move, legal_moves, match_move
from chouette.table import Settings, TableState, fold
from chouette.table import rules as table_rules
from chouette.table.cubes import BOX_SIDE, LIVE, MEMBER_SIDE, Extra, MemberCube
from chouette.table.game import BOARD, Game
from chouette.table.state import corrections_of


@dataclass(frozen=True)
class _Offer:
    """A double (a beaver, a raccoon) waiting for its answer."""

    answerer: str
    side: str
    doubler: str
    doubler_side: str
    position: Position
    value: int
    owner: str  # seen by the first doubler
    cube: str | None
    level: int = 0
    extra: str | None = None


@dataclass
class _Window:
    """A turn before its roll: the side on roll may double the cubes it can turn."""

    side: str
    position: Position
    cubes: dict[str, MemberCube]
    captain: str
    doubled: set[str] = field(default_factory=set)
    single: bool = False
    extras: list[Extra] = field(default_factory=list)
    extras_doubled: set[str] = field(default_factory=set)


@dataclass
class _Walk:
    """What the walk gathers for one game."""

    number: int
    jacoby: bool
    beavers: bool = False
    raccoons: bool = False
    decisions: list[Decision] = field(default_factory=list)
    window: _Window | None = None
    offers: dict[str, _Offer] = field(default_factory=dict)
    #: The box's double of each member's cube this turn: (position, value, owner), for extras.
    box_doubles: dict[str, tuple[Position, int, str]] = field(default_factory=dict)
    #: An open window for extras: (lone taker, possible givers, givers who gave).
    extras: tuple[str, tuple[str, ...], set[str]] | None = None
    #: The members' cubes as the decision being noted saw them.
    cubes: dict[str, MemberCube] = field(default_factory=dict)

    def add(self, **fields: Any) -> None:
        cube: dict[str, Any] = {} if fields["kind"] == MOVE else {"beavers": self.beavers,
                                                                  "raccoons": self.raccoons}
        self.decisions.append(Decision(self.number, len(self.decisions), jacoby=self.jacoby,
                                       cubes=_cube_rows(self.cubes), **cube, **fields))


def _cube_rows(cubes: Mapping[str, MemberCube]) -> tuple[tuple[Any, ...], ...]:
    rows = []
    for member, cube in cubes.items():
        offer = cube.cube.offer
        rows.append((member, cube.value, cube.owner, cube.status, offer.value if offer else None,
                     cube.to_answer, offer.kind if offer else None))
    return tuple(rows)


def game_decisions(settings: Settings | Mapping[str, Any] | None,
                   events: Sequence[Mapping[str, Any]]) -> dict[int, list[Decision]]:
    """Every finished board game of the log that was not voided, with its decisions.

    Raises:
        TableError: the log is malformed or the rules refuse an event.
    """
    final = fold(settings, events)
    effective = [dict(e) for e in final.effective]
    state = TableState(final.initial_settings, corrections=corrections_of(effective))
    walks: dict[int, _Walk] = {}
    for event in effective:
        if event.get("type") == "correct":
            continue
        before = state.game.copy() if state.game else None
        single = state.settings.cube_mode == "single"
        table_rules.apply(state, event)
        game = state.game or before
        if game is None or before is None:
            continue
        walk = walks.get(game.number)
        if walk is None:
            rules = final.settings_for(game.number)
            walk = walks[game.number] = _Walk(game.number, rules.jacoby, rules.beavers, rules.raccoons)
        _note(walk, event, before, state.game, single)
        _extras_window(walk, state.game)
    finished = {r.number for r in final.games if not r.voided and r.mode == BOARD}
    return {n: w.decisions for n, w in walks.items()
            if n in finished and any(d.kind == MOVE for d in w.decisions)}


def _note(walk: _Walk, event: dict[str, Any], before: Game, after: Game | None, single: bool) -> None:
    """Add the decisions ``event`` completed."""
    kind = event.get("type")
    walk.cubes = before.cubes
    if kind == "move" and before.dice is not None and before.position is not None:
        _close(walk)
        _play(walk, before, after, str(event["move"]), single)
    elif kind == "roll" and before.dice is None and before.position is not None:
        _close(walk)
        if after is not None and after.dice is None and after.position is not None and before.on_roll:
            # No legal play: the turn passed by itself; a dance is no decision.
            _open(walk, after, single)
    elif kind == "double" and event.get("extra") and before.position is not None:
        _double_extra(walk, event, before)
    elif kind == "double" and before.position is not None:
        _double(walk, event, before, single)
    elif kind in ANSWERS:
        key = _key(event)
        offer = walk.offers.pop(key, None)
        if offer is not None:
            _answer(walk, offer, str(kind), key, single)
    elif kind == "extra" and walk.extras is not None:
        _extra(walk, str(event.get("from")), str(event.get("to")))
    if after is None:
        _close(walk)
        _extras_window(walk, None)


def _key(event: Mapping[str, Any]) -> str:
    """The offer an answer answers: a member's cube, the team's single cube, an extra."""
    return f"extra:{event['extra']}" if event.get("extra") else str(event.get("cube"))


def _answer(walk: _Walk, offer: _Offer, answer: str, key: str, single: bool) -> None:
    """An answer; a beaver (a raccoon) waits for the other side's answer in turn."""
    walk.add(kind=ANSWER, player=offer.answerer, side=offer.side, position_id=offer.position.id,
             played=answer, value=offer.value, owner=offer.owner, cube=offer.cube,
             level=offer.level, extra=offer.extra)
    if answer in ("beaver", "raccoon"):
        # With a single cube the box answers the captain's beaver of its double as the team's.
        after = "team" if single and offer.extra is None else key
        walk.offers[after] = replace(offer, answerer=offer.doubler, side=offer.doubler_side,
                                     doubler=offer.answerer, doubler_side=offer.side,
                                     level=offer.level + 1,
                                     cube=None if after == "team" else offer.cube)


def _play(walk: _Walk, before: Game, after: Game | None, text: str, single: bool) -> None:
    position, dice = before.position, before.dice
    assert position is not None and dice is not None
    side = "box" if before.on_roll == "box" else "team"
    played = (after.last_move if after is not None else None) or text
    move = match_move(position, dice, played)
    results = {p.id for p in (_after(position, m.steps) for m in legal_moves(position, dice))}
    value, owner = _record_cube(before, side, single)
    walk.add(kind=MOVE, player=_player(before, side), side=side, position_id=position.id,
             played=str(move) if move.steps else "", value=value, owner=owner, dice=dice,
             steps=tuple((a, b) for a, b, _ in move.steps), forced=len(results) <= 1)
    if after is not None and after.position is not None:
        _open(walk, after, single)


def _after(position: Position, steps: tuple[tuple[int, int, bool], ...]) -> Position:
    return apply_move(position, Move(steps))


def _record_cube(game: Game, side: str, single: bool) -> tuple[int, str]:
    """The cube a play is judged with: a single-cube table's one cube, else one in the middle."""
    live = [c for c in game.cubes.values() if c.is_live]
    if not single or not live:
        return 1, CENTRE
    return live[0].value, _relative(live[0], side)


def _relative(cube: MemberCube, side: str) -> str:
    if cube.owner is None:
        return CENTRE
    mine = "box" if side == "box" else "member"
    return ON_ROLL if cube.owner == mine else OPPONENT


def _player(game: Game, side: str) -> str:
    return "box" if side == "box" else game.acting_captain


def _open(walk: _Walk, game: Game, single: bool) -> None:
    """A turn starts (the position seen by the side on roll): its cube decisions open."""
    if game.on_roll is None or game.position is None:
        return
    walk.window = _Window("box" if game.on_roll == "box" else "team", game.position, dict(game.cubes),
                          game.acting_captain, single=single,
                          extras=[e for e in game.extras if e.status == LIVE])


def _double(walk: _Walk, event: dict[str, Any], before: Game, single: bool) -> None:
    """A double: the doubler's decision now, the answers to come."""
    by = str(event.get("by"))
    window = walk.window
    position = window.position if window else before.position
    assert position is not None
    if by == "box":
        answering = [str(m) for m in event.get("cubes") or [m for m in before.members
                                                             if before.cubes[m].is_live]]
        for member in answering:
            cube = before.cubes[member]
            walk.offers[member] = _Offer(member, "team", "box", "box", position, cube.value,
                                         _relative(cube, "box"), member)
            walk.box_doubles[member] = (position, cube.value, _relative(cube, "box"))
        if single and answering:
            _cube_decision(walk, position, before.cubes[answering[0]], "box", "box", True, None)
        else:
            for member in answering:
                _cube_decision(walk, position, before.cubes[member], "box", "box", True, member)
    else:
        cube = before.cubes.get(by) or next(c for c in before.cubes.values() if c.is_live)
        walk.offers["team" if single else by] = _Offer("box", "box", by, "team", position, cube.value,
                                                       _relative(cube, "team"), None if single else by)
        _cube_decision(walk, position, cube, by, "team", True, None if single else by)
    if window is not None:
        window.doubled.update(answering if by == "box" else [by])


def _can_double(cube: MemberCube, side: str) -> bool:
    return cube.owner in (None, "box" if side == "box" else "member")


def _close(walk: _Walk) -> None:
    """The turn's roll (or the game's end): each cube the side on roll could turn and did not
    is a decision not to double."""
    window, walk.window = walk.window, None
    if window is None:
        return
    now, walk.cubes = walk.cubes, window.cubes
    try:
        _close_window(walk, window)
    finally:
        walk.cubes = now


def _close_window(walk: _Walk, window: _Window) -> None:
    open_cubes = [(m, c) for m, c in window.cubes.items()
                  if c.is_live and c.to_answer is None and _can_double(c, window.side)]
    holder = BOX_SIDE if window.side == "box" else MEMBER_SIDE
    for extra in window.extras:
        if extra.cube.owner in (None, holder) and extra.giver not in window.extras_doubled:
            player = extra.giver if window.side == "box" else extra.taker
            walk.add(kind=DOUBLE, player=player, side=window.side, position_id=window.position.id,
                     played="no double", value=extra.value, owner=_extra_owner(extra, window.side),
                     extra=extra.giver)
    if window.single:
        if open_cubes and not window.doubled:
            player = "box" if window.side == "box" else window.captain
            _cube_decision(walk, window.position, open_cubes[0][1], player, window.side, False, None)
        return
    for member, cube in open_cubes:
        if member not in window.doubled:
            player = "box" if window.side == "box" else member
            _cube_decision(walk, window.position, cube, player, window.side, False, member)


def _cube_decision(walk: _Walk, position: Position, cube: MemberCube, player: str, side: str,
                   doubled: bool, member: str | None) -> None:
    walk.add(kind=DOUBLE, player=player, side=side, position_id=position.id,
             played="double" if doubled else "no double", value=cube.value,
             owner=_relative(cube, side), cube=member)


def _extra_owner(extra: Extra, side: str) -> str:
    if extra.cube.owner is None:
        return CENTRE
    return ON_ROLL if extra.cube.owner == (BOX_SIDE if side == "box" else MEMBER_SIDE) else OPPONENT


def _double_extra(walk: _Walk, event: dict[str, Any], before: Game) -> None:
    """The holder of an extra cube redoubles it: the taker on the team's turn, the giver on the box's."""
    giver = str(event.get("extra"))
    extra = next((e for e in before.extras if e.giver == giver), None)
    window = walk.window
    position = window.position if window else before.position
    if extra is None or position is None:
        return
    by = str(event.get("by"))
    side = "team" if by == extra.taker else "box"
    owner = _extra_owner(extra, side)
    walk.add(kind=DOUBLE, player=by, side=side, position_id=position.id, played="double",
             value=extra.value, owner=owner, extra=giver)
    other, other_side = (extra.giver, "box") if side == "team" else (extra.taker, "team")
    walk.offers[f"extra:{giver}"] = _Offer(other, other_side, by, side, position, extra.value, owner,
                                           None, extra=giver)
    if window is not None:
        window.extras_doubled.add(giver)


def _extra(walk: _Walk, giver: str, taker: str) -> None:
    """A member gives the lone taker an extra cube (judged on the box's double of the taker)."""
    assert walk.extras is not None
    walk.extras[2].add(giver)
    _extra_decision(walk, giver, taker, "extra")


def _extra_decision(walk: _Walk, giver: str, taker: str, played: str) -> None:
    found = walk.box_doubles.get(taker)
    if found is None:
        return
    position, value, owner = found
    walk.add(kind=EXTRA, player=giver, side="box", position_id=position.id, played=played,
             value=value, owner=owner, cube=taker)


def _extras_window(walk: _Walk, game: Game | None) -> None:
    """The window for extras opens after a lone take; when it closes, each member who could
    give an extra and did not decided not to."""
    open_now = game.extras_open if game is not None else None
    if open_now is not None:
        given = walk.extras[2] if walk.extras is not None else set()
        walk.extras = (open_now[0], tuple(open_now[1]), given)
        return
    if walk.extras is not None:
        taker, givers, given = walk.extras
        walk.extras = None
        for giver in givers:
            if giver not in given:
                _extra_decision(walk, giver, taker, "no extra")
    if game is not None and game.dice is not None:
        walk.box_doubles.clear()


__all__ = ["ANSWER", "CENTRE", "DOUBLE", "EXTRA", "MOVE", "ON_ROLL", "OPPONENT", "Decision", "game_decisions"]
