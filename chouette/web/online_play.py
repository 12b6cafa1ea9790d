"""Online play at the live table (issue 26; README, "Playing a night online"): who rolls and
moves from their own device, the side a seated player sees the board from, and the word said
when a roll had no legal play. At a table that plays online (the setting ``play``) the box and
the (acting) captain roll and move on their devices; at a match table both players do.
"""

from __future__ import annotations

from typing import Any

from chouette.models import ChouetteTable
from chouette.services import deciders
from chouette.table import TableState


def may_roll(table: ChouetteTable, state: TableState, me: str | None) -> bool:
    """Whether the seated viewer rolls and moves from their own device now: at a match table
    or one that plays online, the player of the side on roll (deciders.decider); the opening
    roll, either match player, or the box or the (acting) captain online."""
    if not (me and table.is_open and state.ordered):
        return False
    game = state.game
    opening = game is None or game.position is None
    if state.settings.is_match:
        return opening or deciders.match_mover(state) == me
    if state.settings.online:
        return me in deciders.opening_rollers(state) if opening else deciders.match_mover(state) == me
    return False


def my_side(state: TableState, me: str | None) -> str | None:
    """The side a seated viewer plays on ("box": the box and their partner; "team": the
    captain and the line), or None (not seated, or only waiting to play)."""
    if not me:
        return None
    if me in (state.box, state.partner):
        return "box"
    return "team" if me in state.seats.team else None


def passed(state: TableState) -> dict[str, Any] | None:
    """The roll just made that had no legal play (the turn passed by itself): who rolled
    what, for a word on every device; else None."""
    last = state.effective[-1] if state.effective else None
    game = state.game
    if (last is None or last.get("type") != "roll" or game is None or game.dice is not None
            or game.on_roll is None):
        return None
    roller = game.acting_captain if game.on_roll == "box" else state.box
    dice = last.get("dice") or [0, 0]
    return {"name": roller, "first": dice[0], "second": dice[1]}
