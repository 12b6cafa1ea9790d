"""Every scenario log replays to its expected summary through `flask --app app replay`."""

from __future__ import annotations

import copy
import json
import pathlib

import pytest

from app import create_app
from chouette.ledger.games import game_points
from chouette.replay import summarize
from chouette.table import fold
from tests.scenarios import SCENARIOS


def _scenarios() -> list[pathlib.Path]:
    return sorted(SCENARIOS.glob("*.json"))


def load(name):
    return json.loads((SCENARIOS / name).read_text(encoding="utf-8"))


def per_game(log):
    """Each finished game's points per player."""
    state = fold(log["table"], log["events"])
    share = state.settings.partner_share_percent
    return [game_points(g.box, g.partner, g.pairs, g.extras, share) for g in state.games]


def seats_of(summary):
    return summary["box"], summary["partner"], summary["captain"], summary["line"]


def variant(log, settings=None, replace=None):
    """A copy of ``log`` with settings added and events replaced (index -> event or None)."""
    new = copy.deepcopy(log)
    new["table"].update(settings or {})
    events = new["events"]
    for index, event in sorted((replace or {}).items(), reverse=True):
        if event is None:
            del events[index]
        else:
            events[index] = event
    return new


def test_scenarios_exist():
    assert len(_scenarios()) >= 4


@pytest.mark.parametrize("path", _scenarios(), ids=lambda p: p.stem)
def test_scenario_replays_to_expected_summary(path):
    runner = create_app({"TESTING": True}).test_cli_runner()
    result = runner.invoke(args=["replay", str(path)])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    expected = json.loads(path.read_text())["expected"]
    for key in expected:
        assert summary[key] == expected[key], f"{path.name}: {key}"
    assert sum(summary["points"].values()) == 0
    assert sum(summary["cents"].values()) == 0


def test_replay_of_illegal_log_names_event_and_exits_1(tmp_path):
    log = {"table": {}, "events": [{"type": "join", "player": "A"},
                                    {"type": "take", "cube": "A"}]}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(log))
    runner = create_app({"TESTING": True}).test_cli_runner()
    result = runner.invoke(args=["replay", str(path)])
    assert result.exit_code == 1
    assert "event 2" in result.output
    assert "no double to take" in result.output


def test_replay_of_malformed_json_exits_1(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    runner = create_app({"TESTING": True}).test_cli_runner()
    result = runner.invoke(args=["replay", str(path)])
    assert result.exit_code == 1
    assert "cannot read" in result.output


def test_replay_of_unknown_setting_exits_1(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"table": {"cube_mod": "multi"}, "events": []}))
    runner = create_app({"TESTING": True}).test_cli_runner()
    result = runner.invoke(args=["replay", str(path)])
    assert result.exit_code == 1
    assert "unknown table setting: cube_mod" in result.output


# Each scenario game by game from its note, and variations of it (settings changed, one
# answer changed) with the summaries worked out by hand.


# --- 01 multi-cube basics ----------------------------------------------------------------


def test_scenario_01_game_by_game():
    games = per_game(load("01-multi-cube-basics.json"))
    # Order B, D, A, C, E. Game 1: D took at 2 and lost, A dropped, box dropped C's double.
    assert games[0] == {"A": -1, "B": 2 + 1 - 1 + 1, "C": 1, "D": -2, "E": -1}
    # Game 2: box B, captain A; all but one: D's take becomes a drop at 1.
    assert games[1] == {"A": -1, "B": 4, "C": -1, "D": -1, "E": -1}
    # Game 3: box B, captain C: team gammon at 1, each member +2.
    assert games[2] == {"A": 2, "B": -8, "C": 2, "D": 2, "E": 2}


def test_scenario_01_without_all_but_one_the_lone_taker_plays_on_and_captains():
    log = load("01-multi-cube-basics.json")
    for settings in ({"all_but_one": "off"}, {"all_but_one_min_players": 6}):
        summary = summarize(variant(log, settings))
        # Game 2 goes on: A (captain) dropped, D captains and wins the gammon at 2: D +4.
        # Game 2's result is the last event: two games. D beat the box: box D.
        assert summary["games"] == 2
        assert summary["points"] == {"A": -1 - 1, "B": 3 + 3 - 4, "C": 1 - 1, "D": -2 + 4,
                                     "E": -1 - 1}
        assert seats_of(summary) == ("D", None, "C", ["E", "A", "B"])


def test_scenario_01_with_mandatory_beaver_a_plain_take_still_becomes_a_drop():
    log = load("01-multi-cube-basics.json")
    summary = summarize(variant(log, {"all_but_one": "mandatory_beaver", "beavers": True}))
    assert summary == {**summary, **log["expected"]}


def test_scenario_01_with_mandatory_beaver_the_lone_beaver_plays_on():
    log = load("01-multi-cube-basics.json")
    index = log["events"].index({"type": "take", "cube": "D"}, 13)
    summary = summarize(variant(log, {"all_but_one": "mandatory_beaver", "beavers": True},
                                {index: {"type": "beaver", "cube": "D"},
                                 index + 1: {"type": "take", "cube": "D"}}))
    # The box takes D's beaver at 4 (the team-gammon result is replaced by that take): the
    # game is unfinished; game 1 counts, and game 2's drops are booked at once (docs/rules.md 2.10):
    # A, C and E pay the box 1 each, D's cube is still live.
    assert summary["games"] == 1
    assert summary["points"] == {"A": -2, "B": 6, "C": 0, "D": -2, "E": -2}


# --- 02 single cube, captain drop --------------------------------------------------------


def test_scenario_02_game_by_game():
    games = per_game(load("02-single-cube-captain-drop.json"))
    # Game 1: B drops at 1; C and D take and win a single at 2.
    assert games[0] == {"A": 1 - 4, "B": -1, "C": 2, "D": 2}
    # Game 2: box C, captain D, line B A: gammon counts single (Jacoby, cube never turned).
    assert games[1] == {"A": -1, "B": -1, "C": 3, "D": -1}


def test_scenario_02_without_jacoby_the_gammon_counts_double():
    log = load("02-single-cube-captain-drop.json")
    summary = summarize(variant(log, {"jacoby": False}))
    assert summary["points"] == {"A": -3 - 2, "B": -1 - 2, "C": 2 + 6, "D": 2 - 2}
    assert summary["cents"] == {k: v * 50 for k, v in summary["points"].items()}
    assert seats_of(summary) == ("C", None, "B", ["A", "D"])


def test_scenario_02_if_the_captain_takes_they_stay_captain_and_becomes_box():
    log = load("02-single-cube-captain-drop.json")
    index = log["events"].index({"type": "drop", "cube": "B"})
    summary = summarize(variant(log, replace={index: {"type": "take", "cube": "B"}}))
    # Game 1: all take, team wins 2 each: box B, captain C, line D A. Game 2: B wins single.
    assert summary["points"] == {"A": -6 - 1, "B": 2 + 3, "C": 2 - 1, "D": 2 - 1}
    assert seats_of(summary) == ("B", None, "D", ["A", "C"])


# --- 03 box partner ----------------------------------------------------------------------


def test_scenario_03_game_by_game():
    games = per_game(load("03-box-partner.json"))
    assert games[0] == {"A": 3, "D": 3, "B": -1, "C": -1, "E": -1, "F": -1, "G": -1, "H": -1}
    assert games[1] == {"A": -6, "D": -6, "B": 2, "C": 2, "E": 2, "F": 2, "G": 2, "H": 2}
    assert games[2] == {"C": 4, "G": 3, "D": -1, "E": -1, "F": -2, "H": -1, "B": -1, "A": -1}


def test_scenario_03_with_a_quarter_share_for_the_partner():
    log = load("03-box-partner.json")
    summary = summarize(variant(log, {"partner_share_percent": 25}))
    # Partner's 25% rounded toward zero: +6 -> 1; -12 -> -3; +7 -> 1 (1.75).
    assert summary["points"] == {"A": 5 - 9 - 1, "B": 0, "C": -1 + 2 + 6, "D": 1 - 3 - 1,
                                 "E": 0, "F": -1, "G": -1 + 2 + 1, "H": 0}
    assert seats_of(summary) == seats_of(log["expected"])


def test_scenario_03_with_partners_off_no_offer_is_accepted():
    log = load("03-box-partner.json")
    with pytest.raises(Exception, match="no partnership is to be offered"):
        summarize(variant(log, {"partner_min_players": 0}))


# --- 04 board game -----------------------------------------------------------------------


def test_scenario_04_last_move_is_a_backgammon_at_cube_two():
    log = load("04-board-game.json")
    before = fold(log["table"], log["events"][:-1]).game
    assert before.on_roll == "member" and before.dice == (2, 5)
    position = before.position  # seen by the team, on roll
    team, box = position.mover, position.opponent
    assert team[0] == 13 and sum(team[1:]) == 2 and team[1] == 2  # two checkers on the 1
    assert box[0] == 0  # the box has borne off none
    assert sum(box[19:26]) > 0  # and has checkers in the team's home board (19..24 the box's side)
    assert [before.cubes[m].value for m in "BC"] == [2, 2]
    state = fold(log["table"], log["events"])
    record = state.games[0]
    assert (record.winner, record.kind, record.mode) == ("team", "backgammon", "board")
    assert dict(record.pairs) == {"B": 6, "C": 6}


def test_scenario_04_declared_result_refused_in_board_mode():
    log = load("04-board-game.json")
    events = log["events"][:-1] + [{"type": "result", "winner": "team", "kind": "single"}]
    with pytest.raises(Exception, match="played on the board"):
        fold(log["table"], events)
