"""The score sheet's lines of a game (issue 14 item 4), noted while the log is folded: every
double and answer, drops, forced drops (all but one), beavers and raccoons, extras with giver
and taker, automatic doubles and each acting captain, as the game's record keeps them."""

from __future__ import annotations

from chouette.table import GameRecord, TableState, apply_event, fold
from chouette.table.lines import SheetLine
from tests.table.helpers import beaver, double, drop, raccoon, result, run, seated, take


def kinds(lines) -> list[tuple[str, str, tuple[str, ...], int]]:
    return [(line.kind, line.who, line.cubes, line.value) for line in lines]


def test_a_forced_drop_is_noted_when_all_but_one_decline():
    state = run(seated("ABCDE"), double("box", "B", "C", "D", "E"), drop("B"), drop("C"),
                drop("D"), take("E"))
    record = state.games[-1]
    assert kinds(record.lines) == [
        ("double", "box", ("B", "C", "D", "E"), 2),
        ("drop", "B", ("B",), 1), ("drop", "C", ("C",), 1), ("drop", "D", ("D",), 1),
        ("take", "E", ("E",), 2),
        ("forced_drop", "E", ("E",), 1),
    ]
    assert record.captains == ("B",)


def test_beavers_raccoons_and_acting_captains_are_noted_with_their_values():
    state = run(seated("ABCDE", beavers=True, raccoons=True, all_but_one="off"),
                double("box", "B", "C", "D", "E"), drop("B"), take("C"), beaver("D"), take("E"),
                raccoon("D"), take("D"), double("C"), drop("C"), result("team", "gammon"))
    record = state.games[-1]
    assert kinds(record.lines) == [
        ("double", "box", ("B", "C", "D", "E"), 2),
        ("drop", "B", ("B",), 1),
        ("take", "C", ("C",), 2),
        ("beaver", "D", ("D",), 4),
        ("take", "E", ("E",), 2),
        ("acting_captain", "C", (), 0),  # the captain dropped: C plays on as captain
        ("raccoon", "box", ("D",), 8),
        ("take", "D", ("D",), 8),
        ("double", "C", ("C",), 4),
        ("drop", "box", ("C",), 2),  # the box drops C's cube: C wins 2
        ("acting_captain", "D", (), 0),
    ]
    assert [line.to for line in record.lines if line.kind == "acting_captain"] == ["B", "C"]
    # Who started the game, then each acting captain (docs/rules.md 2.4, 2.5).
    assert record.started_by == "B" and record.captains == ("B", "C", "D")


def test_extras_are_noted_with_giver_and_taker_and_end_as_cubes():
    state = run(seated("ABCDE", extras=True), double("box", "B", "C", "D", "E"), drop("B"),
                drop("C"), drop("D"), take("E"),
                {"type": "extra", "from": "B", "to": "E"}, {"type": "extra", "from": "D", "to": "E"},
                {"type": "double", "by": "E", "extra": "B"}, {"type": "take", "extra": "B"},
                result("team"))
    record = state.games[-1]
    lines = record.lines
    assert [(line.kind, line.who, line.to, line.value) for line in lines if line.kind == "extra"] == [
        ("extra", "B", "E", 2), ("extra", "D", "E", 2)]
    assert [(line.kind, line.who, line.extra, line.value) for line in lines if line.extra] == [
        ("double", "E", "B", 4), ("take", "B", "B", 4)]
    # B's extra was redoubled by E and taken: B (the box's side of it, 0) owns it at 4.
    assert [(e.giver, e.taker, e.value, e.cube.owner) for e in record.extra_cubes] == [
        ("B", "E", 4, 0), ("D", "E", 2, 1)]
    assert record.captains == ("B", "E")


def test_automatic_doubles_and_the_single_cube_teams_double_are_noted():
    state = run(seated("ABC", cube_mode="single", automatic_doubles=1),
                {"type": "opening_roll", "box": 4, "team": 4},
                {"type": "double", "by": "B"}, {"type": "take", "cube": "team"})
    assert kinds(state.game_lines) == [
        ("automatic", "", ("B", "C"), 2),
        ("double", "B", ("B", "C"), 4),
        ("take", "box", ("B", "C"), 4),
    ]


def test_the_lines_of_a_game_survive_snapshots_undo_and_a_refold():
    events = [*({"type": "join", "player": p} for p in "ABCDE"),
              {"type": "order", "players": list("ABCDE")},
              double("box", "B", "C", "D", "E"), drop("B"), drop("C"), drop("D"), take("E")]
    state = fold({}, events[:-1])
    assert TableState.from_snapshot(state.snapshot()).game_lines == state.game_lines
    ended = apply_event(state, events[-1])
    again = apply_event(apply_event(ended, {"type": "undo"}), events[-1])
    assert again.games[-1].lines == ended.games[-1].lines == fold({}, events).games[-1].lines
    assert GameRecord.from_dict(ended.games[-1].to_dict()) == ended.games[-1]
    assert SheetLine.from_list(ended.games[-1].lines[-1].to_list()).kind == "forced_drop"
