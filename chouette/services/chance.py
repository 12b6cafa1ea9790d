"""Commands that need chance: the server rolls, with a cryptographically sound source.

The order rolls, the partner drawn and the board's dice of a table played with the app's
dice are made here (``server_event``); dice typed from the physical dice pass here too
(``roll_event``). Tests seed the chance (``DICE_SEED``) so that a failure can be replayed.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from typing import Any

from flask import current_app
from flask_babel import gettext as _

from chouette.engine import SecretsDice, legal_moves
from chouette.table import TableError, TableState


def order_roll_event(state: TableState, die: Callable[[], int]) -> dict[str, Any]:
    """An order roll for everyone who must roll now (all players, or the tied ones)."""
    if state.ordered:
        raise TableError(_("The starting order is already settled."))
    if state.order_groups is None:
        rolling = list(state.waiting)
    else:
        rolling = [p for group in state.order_groups if len(group) > 1 for p in group]
    return {"type": "order_roll", "rolls": {name: die() for name in rolling}}


def partner_draw_event(state: TableState, choose: Callable[[list[str]], str]) -> dict[str, Any]:
    """The partner drawn at random among the team other than the captain."""
    candidates = list(state.seats.line)
    if not candidates:
        raise TableError(_("Nobody can be drawn as the box's partner."))
    return {"type": "partner_draw", "player": choose(candidates)}


def dice_event(state: TableState, die: Callable[[], int]) -> dict[str, Any]:
    """The next board roll: the opening roll (one die a side, no tie) or the side on roll's."""
    game = state.game
    if game is None or game.mode is None:
        return {"type": "opening_roll", "box": die(), "team": die()}
    return {"type": "roll", "dice": [die(), die()]}


def roll_event(state: TableState, typed: tuple[int, int] | None = None) -> dict[str, Any]:
    """The roll asked for now: the server's dice (``typed`` None), or the physical dice typed
    (the opening roll's: the box's die, then the team's). Every roll of the table's page
    passes here (a gate that makes a roll wait goes here).

    Raises TableError: dice typed at a table that plays online (its dice are the server's).
    """
    if typed is None:
        return server_event(state, "roll")
    no_typed_dice(state)
    game = state.game
    if game is None or game.mode is None:
        return {"type": "opening_roll", "box": typed[0], "team": typed[1]}
    return {"type": "roll", "dice": [typed[0], typed[1]]}


def no_typed_dice(state: TableState) -> None:
    """Raise TableError at a table that plays online: its dice are the server's only."""
    if state.settings.online:
        raise TableError(_("This table plays online: the dice come from the app, never typed. "
                           "Tap Roll."))


def forced_play(state: TableState) -> str | None:
    """The one legal play of the dice rolled, when the roll allows exactly one, else None."""
    game = state.game
    if game is None or game.position is None or game.dice is None:
        return None
    plays = legal_moves(game.position, game.dice)
    return str(plays[0]) if len(plays) == 1 else None


def server_event(state: TableState, kind: str) -> dict[str, Any]:
    """Build a chance event with the server's dice (``secrets``): order, partner, dice."""
    dice: Callable[[], int] = SecretsDice()
    choose: Callable[[list[str]], str] = secrets.choice
    seed = current_app.config.get("DICE_SEED")
    if seed is not None:
        # Tests only (config.py refuses DICE_SEED outside TESTING, and never reads it from the
        # environment): the chance of a table is drawn from the seed and the number of its
        # events, so the same actions roll the same dice and a failure can be replayed.
        rng = random.Random(f"{seed}:{len(state.effective)}")
        dice, choose = (lambda: rng.randint(1, 6)), rng.choice
    if kind == "order_roll":
        return order_roll_event(state, dice)
    if kind == "partner_draw":
        return partner_draw_event(state, choose)
    if kind == "roll":
        return dice_event(state, dice)
    raise TableError(_("Unknown action."))
