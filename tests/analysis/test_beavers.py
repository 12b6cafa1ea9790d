"""Beavers, raccoons and extra cubes judged as gnubg decides them, on hand-made games: each
answer's error is the one ``cfevaluate`` called by hand gives (issue 27, "take or drop (beaver
and raccoon where allowed)")."""

from __future__ import annotations

import pytest

from chouette.analysis import runner
from chouette.analysis.judge import analyse_log, totals
from tests.analysis import oracle
from tests.analysis.games import beaver_game, extras_game, no_beaver_game

pytestmark = [pytest.mark.gnubg, pytest.mark.sqlite_only]


def _judged(log):
    (judged,) = analyse_log(log["table"], log["events"], runner.run).values()
    return judged


def _one(judged, kind, player, played, level=0):
    (found,) = [j for j in judged if j.decision.kind == kind and j.decision.player == player
                and j.decision.played == played and j.decision.level == level]
    return found


def test_a_right_beaver_and_a_wrong_beaver_cost_what_cfevaluate_by_hand_says(tmp_path):
    log = beaver_game().log
    judged = _judged(log)
    early = _one(judged, "answer", "B", "beaver").decision.position_id
    later = _one(judged, "double", "C", "double").decision.position_id
    (_, dt1, dp1), (nd2, dt2, dp2) = oracle.cfevaluate([(early, 1, -1), (later, 2, 0)], tmp_path)
    assert dt1 < 0 < dt2  # the box's early double is a beaver; C's later redouble is not

    # The box's early double: B beavers (right), C takes (wrong). The taker's equities, in
    # units of the cube before the double: take -DT, drop -DP, beaver: the box answers the
    # beaver at best (take 2 DT, drop -2 DP, raccoon min(4 DT, 4 DP)).
    beaver_1 = -max(2 * dt1, -2 * dp1, min(4 * dt1, 4 * dp1))
    best_1 = max(-dt1, -dp1, beaver_1)
    assert best_1 == pytest.approx(beaver_1)
    b_beaver = _one(judged, "answer", "B", "beaver")
    assert (b_beaver.best, b_beaver.error) == ("beaver", 0.0)
    assert "beaver" in b_beaver.verdict.lower()  # gnubg's own words say so
    c_take = _one(judged, "answer", "C", "take")
    assert c_take.best == "beaver"
    assert c_take.error == pytest.approx(best_1 - (-dt1), abs=1e-6)
    assert c_take.error > 0
    # The box took B's beaver: its choices 2 DT, -2 DP, min(4 DT, 4 DP).
    box_take = _one(judged, "answer", "A", "take", level=1)
    assert box_take.error == pytest.approx(max(2 * dt1, -2 * dp1, min(4 * dt1, 4 * dp1)) - 2 * dt1, abs=1e-6)

    # C's redouble later: the box beavers (wrong: C's double/take is above 0), C raccoons
    # (right), the box takes the raccoon.
    beaver_2 = -max(2 * dt2, -2 * dp2, min(4 * dt2, 4 * dp2))
    box_beaver = _one(judged, "answer", "A", "beaver")
    assert box_beaver.best == "take"
    assert box_beaver.error == pytest.approx(max(-dt2, -dp2, beaver_2) - beaver_2, abs=1e-6)
    assert box_beaver.error > 0.5
    assert "beaver" not in box_beaver.verdict.lower()
    c_raccoon = _one(judged, "answer", "C", "raccoon", level=1)
    assert c_raccoon.best == "raccoon"
    assert c_raccoon.error == pytest.approx(
        max(2 * dt2, -2 * dp2, min(4 * dt2, 4 * dp2)) - min(4 * dt2, 4 * dp2), abs=1e-6)
    box_raccoon_take = _one(judged, "answer", "A", "take", level=2)
    assert box_raccoon_take.error == pytest.approx(max(-4 * dt2, -4 * dp2) - (-4 * dt2), abs=1e-6)
    # C's redouble itself: worth min(DT, DP, the beaver answered at best) against no double.
    c_double = _one(judged, "double", "C", "double")
    doubled = min(dt2, dp2, -beaver_2)
    assert c_double.error == pytest.approx(max(nd2, doubled) - doubled, abs=1e-6)

    figures = totals({1: judged})
    assert figures["C"]["cube_error"] >= c_take.error + c_double.error - 1e-5
    assert figures["A"]["cube_error"] >= box_beaver.error - 1e-5


def test_without_beavers_a_take_is_judged_against_the_drop_only(tmp_path):
    judged = _judged(no_beaver_game().log)
    takes = [j for j in judged if j.decision.kind == "answer" and j.decision.played == "take"]
    assert {j.decision.player for j in takes} == {"B", "C"}
    ((_, dt, dp),) = oracle.cfevaluate([(takes[0].decision.position_id, 1, -1)], tmp_path)
    assert dt < 0  # a beaver would be right where beavers are played
    for take in takes:
        assert take.best == "take" and take.error == pytest.approx(max(0.0, dt - dp), abs=1e-6)
        assert "beaver" not in take.verdict.lower()


def test_an_extra_cube_given_or_not_is_judged_on_the_box_double_of_the_taker(tmp_path):
    log = extras_game().log
    judged = _judged(log)
    extras = [j for j in judged if j.decision.kind == "extra"]
    assert sorted((j.decision.player, j.decision.played) for j in extras) == [
        ("B", "extra"), ("C", "no extra")]
    position = extras[0].decision.position_id
    ((_, dt, _),) = oracle.cfevaluate([(position, 1, -1)], tmp_path)
    # The giver holds the box's side of a 2-cube the taker owns (DT) for a fee of one point.
    for item in extras:
        given = dt - 1.0 if item.decision.played == "extra" else 0.0
        assert item.error == pytest.approx(max(dt - 1.0, 0.0) - given, abs=1e-6)
    # The extra's own redouble by its taker is a cube decision of the taker.
    assert any(j.decision.kind == "double" and j.decision.extra == "B" for j in judged)
