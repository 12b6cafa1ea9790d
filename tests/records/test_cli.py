"""`flask --app app record LOG.json [--format mat|sgf]`."""

from __future__ import annotations

import json

from click.testing import CliRunner

from chouette.record_command import record_command
from tests.scenarios import SCENARIOS


def test_record_writes_the_mat_of_the_board_games_to_stdout():
    result = CliRunner().invoke(record_command, [str(SCENARIOS / "04-board-game.json")])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(" 0 point match\n\n Game 1\n A : 0")
    assert " Wins 3 points" in result.output


def test_record_writes_sgf_on_request():
    result = CliRunner().invoke(record_command, [str(SCENARIOS / "04-board-game.json"), "--format", "sgf"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("(;FF[4]GM[6]") and "PW[A]PB[Team B]RE[B+3]" in result.output


def test_a_log_without_board_games_exits_1_with_the_reason():
    result = CliRunner().invoke(record_command, [str(SCENARIOS / "01-multi-cube-basics.json")])
    assert result.exit_code == 1
    assert "no game is a finished board-mode game" in result.output


def test_an_illegal_log_exits_1_naming_the_event(tmp_path):
    log = json.loads((SCENARIOS / "04-board-game.json").read_text())
    move = next(i for i, e in enumerate(log["events"]) if e["type"] == "move")
    log["events"][move] = {"type": "move", "move": "24/1"}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(log))
    result = CliRunner().invoke(record_command, [str(path)])
    assert result.exit_code == 1
    assert f"event {move + 1}" in result.output


def test_a_file_that_is_not_a_log_exits_1(tmp_path):
    path = tmp_path / "x.json"
    path.write_text("[1, 2]")
    result = CliRunner().invoke(record_command, [str(path)])
    assert result.exit_code == 1 and "table log" in result.output


def test_the_app_has_the_record_command(app):
    result = app.test_cli_runner().invoke(args=["record", str(SCENARIOS / "04-board-game.json")])
    assert result.exit_code == 0 and result.output.startswith(" 0 point match")
