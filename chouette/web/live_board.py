"""The board of the live table's game in progress, and its XGID for the analysis programs."""

from __future__ import annotations

from typing import Any

from flask import url_for

from chouette.engine.position import XgidFields
from chouette.models import ChouetteTable
from chouette.table import TableState
from chouette.table.game import Game
from chouette.web.board import board_context, legal_steps
from chouette.web.board_cubes import CubeView
from chouette.web.catalog import gettext as _


def board_view(table: ChouetteTable, state: TableState, *, runs: bool, move_value: str,
           seq: int, side: str | None = None) -> dict[str, Any] | None:
    """The board of the game in progress, when it is played on the app's board (``runs``:
    the viewer may enter the move: they run the table, or they are the match player on roll).
    At a table that plays online, a seated player sees it from their own ``side`` ("box" or
    "team", ``online_play.my_side``), its points numbered as they count them."""
    game = state.game
    if game is None or game.position is None or game.on_roll is None:
        return None
    labels = {"box": state.box or _("Box"), "team": game.acting_captain}
    if state.settings.is_match:
        labels = {"box": state.box or "", "team": game.acting_captain}
    return board_context(
        table.id, game.position, on_roll=game.on_roll, dice=game.dice,
        cubes=[CubeView.from_member_cube(game.cubes[m]) for m in game.members],
        labels=labels, legal=legal_steps(game.position, game.dice) if game.dice else None,
        bottom=side or "box", numbering="bottom" if side else "on_roll",
        interactive=runs and game.dice is not None,
        move_url=url_for("play.move", table_id=table.id, seq=seq), move_value=move_value,
        hx_target=f"#table-live-{table.id}",
    )


def opening_tie(state: TableState) -> dict[str, Any] | None:
    """The tied opening roll just made (the sides roll again), else None."""
    last = state.effective[-1] if state.effective else None
    game = state.game
    if (last is None or last.get("type") != "opening_roll" or game is None
            or game.position is not None or last.get("box") != last.get("team")):
        return None
    return last


def board_xgid(game: Game) -> str | None:
    """The board's XGID with the dice rolled and the (acting) captain's cube, its value and
    who owns it, as GNU Backgammon and eXtreme Gammon read it (the side on roll at the bottom)."""
    if game.position is None:
        return None
    cube = game.cubes.get(game.acting_captain)
    on_roll = "box" if game.on_roll == "box" else "member"
    owner = cube.owner if cube is not None else None
    fields = XgidFields(
        cube_log2=(cube.value if cube is not None else 1).bit_length() - 1,
        cube_owner=0 if owner is None else 1 if owner == on_roll else -1,
        dice=f"{game.dice[0]}{game.dice[1]}" if game.dice else "00")
    return game.position.xgid(fields)
