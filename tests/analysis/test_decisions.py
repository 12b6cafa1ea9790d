"""The decisions of a board game: who decided what, with which cube (no gnubg needed)."""

from __future__ import annotations

import json

from chouette.analysis.decisions import CENTRE, ON_ROLL, game_decisions
from chouette.table import fold
from tests.analysis.games import cube_game, short_game
from tests.scenarios import SCENARIOS


def _rows(log):
    (decisions,) = game_decisions(log["table"], log["events"]).values()
    return [(d.kind, d.player, d.played, d.cube, d.value, d.owner) for d in decisions]


def test_each_members_cube_is_its_own_decision_against_the_box():
    rows = _rows(cube_game().log)
    assert rows == [
        ("move", "box", "24/23 24/21", None, 1, CENTRE),
        ("double", "C", "double", "C", 1, CENTRE),
        ("answer", "box", "take", "C", 1, CENTRE),
        ("double", "B", "no double", "B", 1, CENTRE),
        ("move", "B", "13/1 8/2*(2)", None, 1, CENTRE),
        ("double", "box", "double", "B", 1, CENTRE),
        ("answer", "B", "drop", "B", 1, CENTRE),
        # The box owns C's cube at 2: it could redouble it and did not.
        ("double", "box", "no double", "C", 2, ON_ROLL),
        ("move", "box", "bar/24* 6/4", None, 1, CENTRE),
        # B is out: C, the acting captain, plays for the team.
        ("move", "C", "bar/20 24/22", None, 1, CENTRE),
        ("double", "box", "double", "C", 2, ON_ROLL),
        ("answer", "C", "drop", "C", 2, ON_ROLL),
    ]


def test_a_single_cube_is_one_decision_for_the_box_and_one_answer_per_member():
    rows = _rows(short_game().log)
    doubles = [r for r in rows if r[0] != "move"]
    assert doubles[-3:] == [("double", "box", "double", None, 1, CENTRE),
                            ("answer", "B", "drop", "B", 1, CENTRE), ("answer", "C", "drop", "C", 1, CENTRE)]
    # The team's cube decisions are the captain's.
    assert {r[1] for r in doubles if r[0] == "double" and r[1] != "box"} == {"B"}


def test_every_play_of_the_scenario_is_given_to_the_box_or_the_captain():
    log = json.loads((SCENARIOS / "04-board-game.json").read_text())
    (decisions,) = game_decisions(log["table"], log["events"]).values()
    moves = [d for d in decisions if d.kind == "move"]
    plays = [e for e in log["events"] if e["type"] == "move"]
    assert len(moves) == len(plays)
    assert {d.player for d in moves} == {"box", "B"}
    # A double taken by both members: the team's cubes at 2 are theirs to redouble.
    assert any(d.kind == "double" and d.player == "C" and d.value == 2 and d.owner == ON_ROLL
               for d in decisions)


def test_a_voided_game_has_no_decisions():
    log = cube_game().log
    log["events"].append({"type": "correct", "game": 1, "reason": "wrong table", "void": True})
    assert fold(log["table"], log["events"]).games[0].voided
    assert game_decisions(log["table"], log["events"]) == {}


def test_a_game_in_play_is_not_judged_yet():
    log = cube_game().log
    log["events"] = log["events"][:-1]
    assert game_decisions(log["table"], log["events"]) == {}


def test_a_beaver_and_a_raccoon_wait_for_their_answers_each_by_the_right_player():
    from tests.analysis.games import beaver_game

    log = beaver_game().log
    (decisions,) = game_decisions(log["table"], log["events"]).values()
    rows = [(d.kind, d.player, d.played, d.cube, d.level) for d in decisions if d.kind == "answer"]
    assert rows == [
        ("answer", "B", "beaver", "B", 0), ("answer", "C", "take", "C", 0),
        ("answer", "box", "take", "B", 1),  # the box answers B's beaver
        ("answer", "box", "beaver", "C", 0), ("answer", "C", "raccoon", "C", 1),
        ("answer", "box", "take", "C", 2),  # the box, the beaverer, answers C's raccoon
        ("answer", "box", "drop", "B", 0), ("answer", "C", "drop", "C", 0)]


def test_extras_given_or_not_and_the_extras_own_cube_decisions():
    from tests.analysis.games import extras_game

    (decisions,) = game_decisions(extras_game().log["table"], extras_game().log["events"]).values()
    found = [(d.kind, d.player, d.played, d.extra) for d in decisions if d.kind == "extra" or d.extra]
    assert found == [("extra", "B", "extra", None), ("extra", "C", "no extra", None),
                     ("double", "D", "double", "B"), ("answer", "B", "take", "B"),
                     ("double", "B", "double", "B"), ("answer", "D", "drop", "B")]


def test_a_single_cubes_beavers_are_the_captains_and_the_box_answers_the_teams():
    from tests.analysis.games import Log

    log = Log({"cube_mode": "single", "beavers": True, "raccoons": True}, ("A", "B", "C", "D"))
    log.add({"type": "opening_roll", "box": 3, "team": 1}).play(3, 1).play(4, 2)
    log.add({"type": "double", "by": "box"}).add({"type": "beaver", "cube": "B"})
    log.add({"type": "take", "cube": "C"}).add({"type": "drop", "cube": "D"})
    log.add({"type": "take", "cube": "team"})  # the box takes the captain's beaver for the team
    log.play(2, 1)
    log.add({"type": "double", "by": "B"}).add({"type": "beaver", "cube": "team"})
    log.add({"type": "drop", "cube": "team"})  # the captain drops the box's beaver: the game ends
    (decisions,) = game_decisions(log.log["table"], log.log["events"]).values()
    answers = [(d.player, d.played, d.cube, d.level, d.value) for d in decisions if d.kind == "answer"]
    assert answers == [("B", "beaver", "B", 0, 1), ("C", "take", "C", 0, 1), ("D", "drop", "D", 0, 1),
                       ("box", "take", None, 1, 1),
                       ("box", "beaver", None, 0, 4), ("B", "drop", None, 1, 4)]
