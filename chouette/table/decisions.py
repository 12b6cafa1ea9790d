"""What a player's decision decides: whether it still stands after other events came in.

Each answer stands on its own (docs/rules.md 2.5): four members answering the box's double at the
same moment each answer their own cube, and the others' answers change nothing of it. So a
decision made on a page drawn some events ago is judged on the table as it is now, as long
as what it decides is unchanged: the same offer still waits on the same cube, the same
member doubles the same cube at the same moment, the same extra may still be given, the
partnership is still offered to the same player. ``what_it_decides`` says what that is, so
that the state the page was drawn from and the state now can be compared; None for what
depends on the exact table (the box's double, dice, moves, results, undo and all the
organizer's records): those are made on the table exactly as the page showed it.

>>> from chouette.table import fold
>>> state = fold({}, [{"type": "join", "player": p} for p in "ABCD"]
...              + [{"type": "order", "players": list("ABCD")},
...                 {"type": "double", "by": "box", "cubes": ["C", "D"]}])
>>> take = {"type": "take", "cube": "D"}
>>> after = fold({}, [*state.effective, {"type": "take", "cube": "C"}])
>>> what_it_decides(state, take) == what_it_decides(after, take)
True
>>> what_it_decides(after, {"type": "take", "cube": "C"}) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chouette.table.cubes import LIVE
from chouette.table.errors import TableError
from chouette.table.game import Game
from chouette.table.game_rules import game_in_progress
from chouette.table.tablestate import TableState

#: The kinds of event that may stand on their own (each is a player's own decision).
STANDING = ("take", "drop", "beaver", "raccoon", "double", "extra", "partner")
ANSWERS = ("take", "drop", "beaver", "raccoon")

Decided = tuple[Any, ...]


def what_it_decides(state: TableState, event: Mapping[str, Any]) -> Decided | None:
    """What ``event`` decides at ``state``, as a value to compare with the same at another
    state of the table; None when it decides nothing that waits now (nothing to answer,
    a double already made, an extra already given) or is no decision that stands on its
    own (``STANDING``)."""
    kind = event.get("type")
    if kind == "partner":
        return _partner(state, event)
    if kind == "double":  # the first double of a game starts it: the game to come then
        game = state.game or _game_to_come(state)
        return _double(state, game, event) if game is not None else None
    game = state.game
    if game is None or kind not in STANDING:
        return None
    if kind in ANSWERS:
        return _answer(game, event)
    if kind == "extra":
        return _extra_given(game, event)
    return None


def _game_to_come(state: TableState) -> Game | None:
    """The game the next cube action starts (on a copy), or None when none may start now."""
    try:
        return game_in_progress(state.copy())
    except TableError:
        return None


def _partner(state: TableState, event: Mapping[str, Any]) -> Decided | None:
    """The partnership offered to the event's player, for this box after these games."""
    player = event.get("player")
    if state.game is not None or not state.needs_partner() or player != state.next_partner_offer():
        return None
    return ("partner", len(state.games), state.box, player, tuple(state.partner_offers))


def _answer(game: Game, event: Mapping[str, Any]) -> Decided | None:
    """The offer waiting on the cube (or extra cube) the answer names."""
    if "extra" in event:
        extra = next((e for e in game.extras if e.giver == event.get("extra")), None)
        if extra is None or extra.cube.offer is None:
            return None
        return ("answer", game.number, "extra", extra.to_dict())
    target = event.get("cube")
    if target == "team":  # a single cube: the team's cube answered as one
        if not game.pending:
            return None
        return ("answer", game.number, "team", [game.cubes[m].to_dict() for m in game.pending])
    cube = game.cubes.get(target) if isinstance(target, str) else None
    if cube is None or cube.to_answer is None:
        return None
    box_double = game.box_double
    answered = (box_double.answers.get(target)
                if box_double is not None and target in box_double.cubes else None)
    return ("answer", game.number, target, cube.to_dict(), answered)


def _double(state: TableState, game: Game, event: Mapping[str, Any]) -> Decided | None:
    """A member's double of their own cube (or of an extra cube) at this moment of the game."""
    by = event.get("by")
    if not isinstance(by, str) or by == "box":
        return None  # the box's double names the cubes as the page showed them
    moment = (game.number, game.turns, game.on_roll, game.dice)
    if "extra" in event:
        extra = next((e for e in game.extras if e.giver == event.get("extra")), None)
        if extra is None or extra.status != LIVE:
            return None
        return ("double", *moment, "extra", extra.to_dict())
    cube = game.cubes.get(by)
    if cube is None or not cube.is_live or by in game.member_doubles:
        return None
    if state.settings.cube_mode == "single":  # the captain doubles the team's one cube
        return ("double", *moment, by, [game.cubes[m].to_dict() for m in game.live])
    return ("double", *moment, by, cube.to_dict())


def _extra_given(game: Game, event: Mapping[str, Any]) -> Decided | None:
    """An extra the giver may still give the lone taker after this double."""
    giver = event.get("from")
    if game.extras_open is None or any(e.giver == giver for e in game.extras):
        return None
    lone, givers = game.extras_open
    if giver not in givers:
        return None
    return ("extra", game.number, lone, tuple(givers), giver)
