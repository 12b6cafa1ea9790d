"""Records built from table logs: who plays whom, which cube actions, which result."""

from __future__ import annotations

import json
import random

import pytest

from chouette.records import Double, Drop, Play, Take
from chouette.records.tables import board_games, table_records
from chouette.table import fold
from tests.records.games import table_log
from tests.scenarios import SCENARIOS


def _scenario(name: str) -> dict:
    return json.loads((SCENARIOS / name).read_text())


def test_board_game_is_the_box_against_the_team_of_the_captain_who_started_it():
    log = _scenario("04-board-game.json")
    (found,) = board_games(log["table"], log["events"])
    assert (found.box, found.team) == ("A", "Team B")
    first = found.game.actions[0]
    assert first == Play(0, (5, 3), "13/8 6/3")  # the box won the opening roll 5-3


def test_multi_cube_game_has_no_cube_action_and_its_result_at_cube_one():
    log = _scenario("04-board-game.json")
    assert any(e["type"] == "double" for e in log["events"])
    (found,) = board_games(log["table"], log["events"])
    assert not any(isinstance(a, Double | Take | Drop) for a in found.game.actions)
    assert (found.game.winner, found.game.points) == (1, 3)  # the team's backgammon at cube 1


def test_scoresheet_games_are_not_recorded():
    log = _scenario("02-single-cube-captain-drop.json")
    assert table_records(log["table"], log["events"]) == []


def test_single_cube_game_records_the_box_double_and_the_team_answer():
    log = table_log(random.Random(0), "single", games=3)
    final = fold(log["table"], log["events"])
    for found in board_games(log["table"], log["events"]):
        record = final.games[found.number - 1]
        members = len(record.cubes)
        doubles = [a for a in found.game.actions if isinstance(a, Double)]
        assert doubles, "the seed's games double"
        assert [a.value for a in doubles] == [2 ** n for n in range(1, len(doubles) + 1)]
        if not any(c.status != "live" for c in record.cubes):
            # Every member played on: the box's points are the record's, once per member.
            assert abs(record.box_side_points) == found.game.points * members


def test_consecutive_games_of_one_box_and_team_make_one_session_with_scores():
    log = table_log(random.Random(1), "multi", games=6)
    for record in table_records(log["table"], log["events"]):
        scores = [0, 0]
        for game in record.games:
            assert (game.score_left, game.score_right) == tuple(scores)
            if game.winner is not None:
                scores[game.winner] += game.points


def test_undone_events_are_not_recorded():
    log = _scenario("04-board-game.json")
    events = list(log["events"])
    at = next(i for i, e in enumerate(events) if e["type"] == "move") + 1
    events[at:at] = [{"type": "roll", "dice": [6, 6]}, {"type": "undo"}]
    assert table_records(log["table"], events) == table_records(log["table"], log["events"])


def test_a_voided_game_is_not_recorded():
    log = _scenario("04-board-game.json")
    events = [*log["events"], {"type": "correct", "game": 1, "void": True, "reason": "wrong board"}]
    assert table_records(log["table"], events) == []


def test_only_the_games_asked_for():
    log = table_log(random.Random(2), "multi", games=3)
    numbers = [f.number for f in board_games(log["table"], log["events"])]
    (record,) = table_records(log["table"], log["events"], games=[numbers[1]])
    assert record.notes == (f"game {numbers[1]}",)


@pytest.mark.parametrize("mode", ["single", "multi"])
def test_every_board_game_of_random_tables_writes_in_both_formats(mode):
    from chouette.records import write_mat, write_sgf

    for seed in range(15):
        log = table_log(random.Random(seed), mode, games=4)
        for record in table_records(log["table"], log["events"]):
            assert write_mat(record) and write_sgf(record)


def test_a_multi_cube_game_ended_by_drops_is_recorded_unfinished():
    games = [f for seed in range(10)
             for f in board_games(*_log_parts(table_log(random.Random(seed), "multi", games=3)))]
    ended_off_board = [f for f in games if f.game.winner is None]
    assert ended_off_board, "some seed's game ends with every cube dropped"
    assert all(f.game.points == 0 and all(isinstance(a, Play) for a in f.game.actions)
               for f in ended_off_board)


def _log_parts(log: dict) -> tuple[dict, list]:
    return log["table"], log["events"]
