"""The XGID under a board carries the dice rolled and the (acting) captain's cube: its value
and who owns it, from the side on roll (issue 25 item 10)."""

from __future__ import annotations

from chouette.engine.position import parse_xgid
from chouette.table import apply_event
from chouette.web.live_board import board_xgid
from tests.table.helpers import run, seated


def test_the_xgid_says_the_dice_and_the_captains_cube():
    state = run(seated("ABCD"), {"type": "opening_roll", "box": 1, "team": 6},
                {"type": "move", "move": "13/7 8/7"})
    game = state.game
    assert game.on_roll == "box"
    position, fields = parse_xgid(board_xgid(game))
    assert position == game.position and fields.dice == "00"
    assert (fields.cube_value, fields.cube_owner) == (1, 0)
    # The box doubles the captain, who takes: B owns the cube at 2; the box rolls.
    state = run(state, {"type": "double", "by": "box", "cubes": ["B"]}, {"type": "take", "cube": "B"},
                {"type": "roll", "dice": [5, 3]})
    position, fields = parse_xgid(board_xgid(state.game))
    assert fields.dice == "53" and (fields.cube_value, fields.cube_owner) == (2, -1)
    state = apply_event(state, {"type": "move", "move": "8/3 6/3"})
    # The team is on roll: the cube is its own.
    position, fields = parse_xgid(board_xgid(state.game))
    assert fields.dice == "00" and (fields.cube_value, fields.cube_owner) == (2, 1)
    assert position == state.game.position
