"""The score sheet's lines of each game, noted while the log is folded (``chouette.table.lines``).

``before(state)`` takes what an event may change in the game in progress; once the rules
applied the event, ``note`` compares and notes what happened: the event's own double or
answer, and what the rules made of it (a forced drop, a new acting captain, an extra cube).
The lines of the game in progress are kept in ``TableState.game_lines``; when a game ends they
go to its ``GameRecord``, with its extra cubes as they ended.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from chouette.table.cubes import BOX_SIDE, DROPPED, LIVE, Extra, MemberCube
from chouette.table.game import Game
from chouette.table.lines import SheetLine

if TYPE_CHECKING:
    from chouette.table.tablestate import TableState

ANSWERS = ("take", "drop", "beaver", "raccoon")
#: The events that may write a line (a new kind of event that does adds its type here):
#: rolls, moves and results only end a game, and most events of a night are rolls and moves.
NOTED = frozenset({"double", *ANSWERS, "extra", "opening_roll", "leave", "deal", "proxy"})


@dataclass(frozen=True)
class Before:
    """The parts of the game in progress an event may change, as they were before it."""

    acting: str
    cubes: dict[str, MemberCube]
    extras: tuple[Extra, ...]
    automatic: int


def before(state: TableState, event: Mapping[str, Any]) -> Before | None:
    """What ``note`` compares with, taken before an event (None between games, or for an
    event that writes no line)."""
    game = state.game
    if game is None or event.get("type") not in NOTED:
        return None
    return Before(game.acting_captain, dict(game.cubes), tuple(game.extras), game.automatic)


def note(state: TableState, game_before: Game | None, was: Before | None,
         event: Mapping[str, Any]) -> None:
    """Note the lines ``event`` wrote in its game, once the rules applied it to ``state``.

    ``game_before`` is the game object before the event (the rules change it in place, so
    it is the game as the event left it even when the event ended it).
    """
    game = state.game if state.game is not None else game_before
    if game is None:
        return  # between games, or a game declared and ended by one result
    noted = event.get("type") in NOTED
    lines = tuple(_lines(game, was if game_before is not None else None, event)) if noted else ()
    if state.game is None:
        # The event ended the game: its lines go to its record.
        record = state.games[-1]
        state.games.replace_last(replace(record, lines=state.game_lines + lines,
                                         extra_cubes=tuple(game.extras)))
        state.game_lines = ()
    elif lines:
        state.game_lines = state.game_lines + lines


def _name(value: object) -> str:
    """A name as the rules spell it (``state.check_name``'s spelling)."""
    return " ".join(unicodedata.normalize("NFC", value).split()) if isinstance(value, str) else ""


def _grouped(kind: str, found: list[tuple[str, str, int]]) -> Iterator[SheetLine]:
    """One line per (who, value) of ``found`` (who, cube, value), cubes in order."""
    groups: dict[tuple[str, int], list[str]] = {}
    for who, cube, value in found:
        groups.setdefault((who, value), []).append(cube)
    for (who, value), cubes in groups.items():
        yield SheetLine(kind, who, tuple(cubes), value)


def _lines(game: Game, was: Before | None, event: Mapping[str, Any]) -> Iterator[SheetLine]:
    """The lines of one event in ``game`` (as the event left it) against ``was``."""
    kind = event.get("type")
    cubes = was.cubes if was is not None else {m: MemberCube(m) for m in game.members}
    extras = was.extras if was is not None else ()
    own_drops: set[str] = set()
    if kind == "opening_roll" and game.automatic > (was.automatic if was is not None else 0):
        yield SheetLine("automatic", "", tuple(game.members),
                        max(c.value for c in game.cubes.values()))
    elif kind == "double" and "extra" in event:
        giver = _name(event.get("extra"))
        extra = next((e for e in game.extras if e.giver == giver), None)
        if extra is not None and extra.cube.offer is not None:
            who = extra.giver if extra.cube.offer.side == BOX_SIDE else extra.taker
            yield SheetLine("double", who, (), extra.cube.offer.value, extra=giver)
    elif kind == "double":
        turned = [m for m in game.members
                  if game.cubes[m].cube.offer is not None and cubes[m].cube.offer is None]
        # With a single cube every cube turns at once: the (acting) captain doubles for all.
        captain = was.acting if was is not None else game.members[0]
        found = []
        for member in turned:
            offer = game.cubes[member].cube.offer
            assert offer is not None
            who = "box" if offer.side == BOX_SIDE else captain if len(turned) > 1 else member
            found.append((who, member, offer.value))
        yield from _grouped("double", found)
    elif kind in ANSWERS and "extra" in event:
        giver = _name(event.get("extra"))
        old = next((e for e in extras if e.giver == giver), None)
        if old is not None and old.cube.offer is not None:
            who = old.giver if old.cube.to_answer == BOX_SIDE else old.taker
            value = old.value if kind == "drop" else old.cube.offer.value * _times(str(kind))
            yield SheetLine(str(kind), who, (), value, extra=giver)
    elif kind in ANSWERS:
        target = _name(event.get("cube"))
        targets = ([m for m in game.members if cubes[m].cube.offer is not None]
                   if target == "team" else [target] if target in cubes else [])
        found = []
        for member in targets:
            offer = cubes[member].cube.offer
            if offer is None:
                continue
            who = "box" if cubes[member].cube.to_answer == BOX_SIDE else member
            value = cubes[member].value if kind == "drop" else offer.value * _times(str(kind))
            found.append((who, member, value))
        if kind == "drop":
            own_drops = set(targets)
        yield from _grouped(str(kind), found)
    # What the rules made of the event: forced drops (all-but-one), extras, a new captain.
    for member in game.members:
        cube = game.cubes[member]
        if cubes[member].status == LIVE and cube.status == DROPPED and member not in own_drops:
            yield SheetLine("forced_drop", member, (member,), -cube.settled)
    for extra in game.extras[len(extras):]:
        yield SheetLine("extra", extra.giver, (), extra.value, to=extra.taker)
    acting = was.acting if was is not None else game.members[0]
    if game.acting_captain != acting:
        yield SheetLine("acting_captain", game.acting_captain, (), 0, to=acting)


def _times(kind: str) -> int:
    """A beaver or a raccoon redoubles the value offered; a take accepts it."""
    return 2 if kind in ("beaver", "raccoon") else 1
