"""The real game of tests/scenarios/04-board-game.json: every move accepted, a backgammon at the end."""

from __future__ import annotations

import json

from chouette.engine import (
    Position,
    WinKind,
    apply_move,
    legal_moves,
    match_move,
    outcome,
)
from tests.scenarios import SCENARIOS

SCENARIO = SCENARIOS / "04-board-game.json"


def test_whole_board_game_is_accepted_and_ends_in_a_backgammon():
    events = json.loads(SCENARIO.read_text())["events"]
    position = Position.initial()
    roll = None
    moves = passes = 0
    for event in events:
        if event["type"] == "opening_roll":
            roll = (event["box"], event["team"])
        elif event["type"] == "roll":
            # The turn passes: the other side is now on roll, with these dice.
            position = position.swap()
            roll = tuple(event["dice"])
            if not legal_moves(position, roll):
                passes += 1
        elif event["type"] == "move":
            assert outcome(position) is None
            move = match_move(position, roll, event["move"])
            position = apply_move(position, move)
            moves += 1
    result = outcome(position)
    assert moves == 83 and passes == 3
    assert result is not None and result.on_roll_won and result.kind is WinKind.BACKGAMMON
