"""What a decision decides (docs/rules.md 2.5: each answer stands on its own): the same after the other
members' answers, doubles and extras; another once its cube was answered or its game ended."""

from __future__ import annotations

from chouette.table import fold
from chouette.table.decisions import what_it_decides

SEATED = [{"type": "join", "player": p} for p in "ABCDE"] + [{"type": "order", "players": list("ABCDE")}]
SETTINGS = {"extras": True, "beavers": True}
DOUBLE_ALL = {"type": "double", "by": "box", "cubes": list("BCDE")}


def _both(events, later, decision):
    """What ``decision`` decides after ``events``, and after ``events`` + ``later``."""
    before = fold(SETTINGS, events)
    after = fold(SETTINGS, [*events, *later])
    return what_it_decides(before, decision), what_it_decides(after, decision)


def test_an_answer_decides_the_same_after_the_other_members_answers():
    for answer in ("take", "drop", "beaver"):
        seen, now = _both([*SEATED, DOUBLE_ALL], [{"type": "take", "cube": "B"}, {"type": "drop", "cube": "C"},
                                                  {"type": "beaver", "cube": "D"}],
                          {"type": answer, "cube": "E"})
        assert seen is not None and seen == now


def test_an_answer_decides_nothing_once_its_cube_was_answered_or_its_game_ended():
    take = {"type": "take", "cube": "C"}
    assert _both([*SEATED, DOUBLE_ALL], [take], {"type": "drop", "cube": "C"})[1] is None
    every_drop = [{"type": "drop", "cube": m} for m in "BCDE"]
    seen, now = _both([*SEATED, DOUBLE_ALL], every_drop, {"type": "take", "cube": "E"})
    assert seen is not None and now is None
    assert fold(SETTINGS, [*SEATED, DOUBLE_ALL, *every_drop]).game is None  # it ended


def test_an_answer_to_another_double_of_the_same_cube_decides_another_thing():
    again = [{"type": "take", "cube": "C"}, {"type": "double", "by": "C"}, {"type": "take", "cube": "C"},
             {"type": "double", "by": "box", "cubes": ["C"]}]
    seen, now = _both([*SEATED, {"type": "double", "by": "box", "cubes": ["C"]}], again,
                      {"type": "take", "cube": "C"})
    assert seen is not None and now is not None and seen != now


def test_members_doubles_at_one_moment_each_decide_the_same():
    seen, now = _both(SEATED, [{"type": "double", "by": "C"}, {"type": "double", "by": "D"}],
                      {"type": "double", "by": "E"})
    assert seen is not None and seen == now
    # E's own double made already: nothing left to decide.
    assert _both(SEATED, [{"type": "double", "by": "E"}], {"type": "double", "by": "E"})[1] is None


def test_extras_given_by_several_droppers_each_decide_the_same():
    lone_take = [*SEATED, DOUBLE_ALL, {"type": "drop", "cube": "B"}, {"type": "drop", "cube": "C"},
                 {"type": "drop", "cube": "D"}, {"type": "take", "cube": "E"}]
    seen, now = _both(lone_take, [{"type": "extra", "from": "B", "to": "E"}],
                      {"type": "extra", "from": "C", "to": "E"})
    assert seen is not None and seen == now
    assert _both(lone_take, [{"type": "extra", "from": "C", "to": "E"}],
                 {"type": "extra", "from": "C", "to": "E"})[1] is None


def test_what_depends_on_the_exact_table_decides_nothing_on_its_own():
    state = fold({}, [*SEATED, {"type": "double", "by": "box", "cubes": ["C"]}])
    for event in (DOUBLE_ALL, {"type": "roll", "dice": [3, 1]}, {"type": "move", "move": "8/5 6/5"},
                  {"type": "result", "winner": "box", "kind": "single"}, {"type": "undo"},
                  {"type": "join", "player": "F"}):
        assert what_it_decides(state, event) is None
