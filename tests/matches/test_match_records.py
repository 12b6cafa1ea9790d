"""A match downloads whole as .mat and SGF, and GNU Backgammon reads it as we do: the match
length, every game, the cube actions, the Crawford game and the score before each game."""

from __future__ import annotations

import random

import pytest

from chouette.records import Double, Drop, Take
from chouette.records.matches import match_record
from chouette.table import Settings
from chouette.table.match_rules import match_of
from tests.matches.helpers import match_table, play_out, win_by_drop
from tests.records.gnubg_tool import check_with_gnubg


def _crawford_match():
    """A match to 3: Ann wins 2 by a drop (a double taken, redoubled, dropped), then the
    Crawford game is played out on the board, then one more game if needed."""
    state = win_by_drop(match_table(3), "box", cube=2)
    state = play_out(state, random.Random(1))  # Bob wins the Crawford game: 2-1
    state = win_by_drop(state, "box", cube=1)
    assert match_of(state).is_over
    return state


def test_the_match_record_holds_every_game_its_scores_and_the_crawford_game():
    state = _crawford_match()
    record = match_record(Settings.for_match(3).to_dict(), state.effective)
    assert (record.left, record.right, record.match_length) == ("Ann", "Bob", 3)
    assert [(g.score_left, g.score_right, g.crawford, g.winner, g.points) for g in record.games] == [
        (0, 0, False, 0, 2), (2, 0, True, 1, 1), (2, 1, False, 0, 1)]
    first = record.games[0].actions
    assert [type(a) for a in first if not hasattr(a, "dice")] == [Double, Take, Double, Drop]


@pytest.mark.parametrize("fmt", ["mat", "sgf"])
def test_a_match_opens_in_gnubg_with_every_play_and_cube_action_legal(fmt):
    state = _crawford_match()
    record = match_record(Settings.for_match(3).to_dict(), state.effective)
    assert check_with_gnubg(record, fmt) == []


@pytest.mark.parametrize("fmt", ["mat", "sgf"])
def test_points_capped_at_the_length_open_in_gnubg(fmt):
    state = win_by_drop(match_table(3), "Bob", cube=4)  # a cube of 4 dropped: the match won
    assert match_of(state).scores == (0, 3)
    record = match_record(Settings.for_match(3).to_dict(), state.effective)
    assert record.games[-1].points == 4  # the game's value; the match stops at 3
    assert check_with_gnubg(record, fmt) == []


def test_a_chouette_table_has_no_match_record():
    assert match_record({}, [{"type": "join", "player": "Ann"}]) is None


def test_the_record_command_writes_a_match_log_as_its_whole_match(tmp_path):
    """`flask record` on a match table's log: the match length, every game, the Crawford game."""
    import json

    from click.testing import CliRunner

    from chouette.record_command import record_command

    state = _crawford_match()
    path = tmp_path / "match.json"
    path.write_text(json.dumps({"table": Settings.for_match(3).to_dict(), "events": list(state.effective)}))
    result = CliRunner().invoke(record_command, [str(path)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(" 3 point match\n\n Game 1\n Ann : 0")
    assert result.output.count(" Game ") == 3 and " Bob : 0" in result.output
    sgf = CliRunner().invoke(record_command, [str(path), "--format", "sgf"])
    assert sgf.exit_code == 0, sgf.output
    assert sgf.output.count("MI[length:3]") == 3 and "RU[Crawford:CrawfordGame]" in sgf.output
