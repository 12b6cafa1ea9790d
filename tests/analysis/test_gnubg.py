"""GNU Backgammon's judgement agrees with gnubg's own analysis (issue 27's proof)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from chouette.analysis import runner
from chouette.analysis.command import analyse_command
from chouette.analysis.judge import analyse_log, totals
from chouette.records import write_mat
from chouette.records.tables import table_records
from chouette.table import fold
from tests.analysis import oracle
from tests.analysis.games import cube_game, short_game
from tests.scenarios import SCENARIOS

pytestmark = [pytest.mark.gnubg, pytest.mark.sqlite_only]


def _agree(log, box, captain, tmp_path):
    figures = totals(analyse_log(log["table"], log["events"], runner.run))
    (record,) = table_records(log["table"], log["events"])
    left, right = oracle.analyse_match(write_mat(record), tmp_path, jacoby=record.jacoby)
    assert figures[box]["checker_error"] == pytest.approx(left, rel=0.05, abs=1e-3)
    assert figures[captain]["checker_error"] == pytest.approx(right, rel=0.05, abs=1e-3)
    return figures


def test_checker_errors_of_the_box_and_captain_agree_with_gnubgs_analyse_match(tmp_path):
    figures = _agree(short_game().log, "A", "B", tmp_path)
    assert figures["A"]["moves"] > 0 and figures["B"]["moves"] > 0
    assert "C" not in figures or figures["C"]["moves"] == 0


def test_with_the_jacoby_rule_the_checker_errors_still_agree(tmp_path):
    log = short_game().log
    log["table"] = {**log["table"], "jacoby": True}
    assert table_records(log["table"], log["events"])[0].jacoby
    _agree(log, "A", "B", tmp_path)


@pytest.mark.slow
def test_checker_errors_of_the_board_game_scenario_agree_with_gnubgs_analyse_match(tmp_path):
    log = json.loads((SCENARIOS / "04-board-game.json").read_text())
    figures = _agree(log, "A", "B", tmp_path)
    assert figures["A"]["checker_error"] > 1  # random plays: many errors


def test_each_members_cube_error_agrees_with_cfevaluate_called_by_hand(tmp_path):
    log = cube_game().log
    events = log["events"]

    def position_before(index):
        return fold(log["table"], events[:index]).game.position.id

    first = next(i for i, e in enumerate(events) if e.get("by") == "C")
    box_b = next(i for i, e in enumerate(events) if e.get("cubes") == ["B"])
    box_c = next(i for i, e in enumerate(events) if e.get("cubes") == ["C"])
    turn_1, b_doubled, c_redoubled = oracle.cfevaluate(
        [(position_before(first), 1, -1), (position_before(box_b), 1, -1), (position_before(box_c), 2, 0)],
        tmp_path)

    def best(row):
        return max(row[0], min(row[1], row[2]))

    expected_c = (best(turn_1) - min(turn_1[1:]))  # C doubled
    expected_c += c_redoubled[2] - min(c_redoubled[1:])  # C dropped the box's redouble
    expected_b = best(turn_1) - turn_1[0]  # B did not double at the same turn
    expected_b += b_doubled[2] - min(b_doubled[1:])  # B dropped
    figures = totals(analyse_log(log["table"], events, runner.run))
    assert figures["C"]["cube_error"] == pytest.approx(expected_c, abs=1e-4)
    assert figures["B"]["cube_error"] == pytest.approx(expected_b, abs=1e-4)
    assert figures["C"]["cube_decisions"] == 2  # a double and an answer count always
    assert figures["A"]["cube_error"] >= 0


def test_the_analyse_command_prints_each_players_figures(tmp_path):
    path = tmp_path / "log.json"
    path.write_text(json.dumps(short_game().log))
    result = CliRunner().invoke(analyse_command, [str(path)])
    assert result.exit_code == 0, result.output
    players = json.loads(result.output)["players"]
    assert set(players) == {"A", "B", "C"}
    for figures in players.values():
        assert figures["checker_error"] >= 0 and figures["cube_error"] >= 0
        assert {"moves", "checker_error", "cube_decisions", "cube_error"} <= set(figures)
