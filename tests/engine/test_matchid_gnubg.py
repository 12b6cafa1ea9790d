"""Match IDs against the ones GNU Backgammon 1.07 writes for the same states.

The facts are in data/matchids_gnubg.json, gathered once with gnubg by
data/gather_matchids_gnubg.py (its docstring says how to rerun it); gnubg is not needed here.
"""

from __future__ import annotations

import base64
import dataclasses
import json
from pathlib import Path

import pytest

from chouette.engine.matchid import GameState, MatchState, Resignation

DATA = json.loads((Path(__file__).parent / "data" / "matchids_gnubg.json").read_text())
ROWS = DATA["rows"]
ROUTES = ("writer", "set matchid", "xgid", "session")

# The bits of the key, written out from the manual independently of the module: (first bit, width).
LAYOUT = {
    "cube_log": (1, 4), "owner": (5, 2), "on_roll": (7, 1), "crawford": (8, 1), "game_state": (9, 3),
    "turn": (12, 1), "double": (13, 1), "resign": (14, 2), "die_1": (16, 3), "die_2": (19, 3),
    "length": (22, 15), "score_0": (37, 15), "score_1": (52, 15), "bit_67": (67, 1),
}


def state_of(row: dict) -> MatchState:
    """The row's state as a MatchState (dice in the order the row gave them to gnubg)."""
    fields = dict(row["state"])
    fields["dice"] = tuple(fields["dice"]) if fields["dice"] else None
    fields["scores"] = tuple(fields["scores"])
    return MatchState(**fields)


def bits_of(match_id: str) -> dict[str, int]:
    """The fields of a Match ID, read with LAYOUT."""
    key = int.from_bytes(base64.b64decode(match_id), "little")
    return {name: (key >> (first - 1)) & ((1 << width) - 1) for name, (first, width) in LAYOUT.items()}


def old_form(row: dict) -> str:
    """The ID this project wrote before following gnubg: the dice as given, bit 67 always 0."""
    state, key = row["state"], 0
    dice = state["dice"] or [0, 0]
    fields = {
        "cube_log": state["cube_value"].bit_length() - 1,
        "owner": 3 if state["cube_owner"] is None else state["cube_owner"],
        "on_roll": state["on_roll"], "crawford": int(state["crawford"]), "game_state": state["game_state"],
        "turn": state["turn"], "double": int(state["double_offered"]), "resign": state["resignation"],
        "die_1": dice[0], "die_2": dice[1], "length": state["length"],
        "score_0": state["scores"][0], "score_1": state["scores"][1], "bit_67": 0,
    }
    for name, value in fields.items():
        key |= value << (LAYOUT[name][0] - 1)
    return base64.b64encode(key.to_bytes(9, "little")).decode()


def divide(ours: str, theirs: str) -> str:
    """The fields where two Match IDs differ, for a failure message."""
    a, b = bits_of(ours), bits_of(theirs)
    return ", ".join(f"{name} {a[name]} vs gnubg {b[name]}" for name in LAYOUT if a[name] != b[name])


@pytest.mark.parametrize("route", ROUTES)
def test_every_state_encodes_byte_for_byte_as_gnubg_writes_it(route):
    rows = [row for row in ROWS if row["route"] == route]
    assert rows
    wrong = [
        f"{row['state']}: ours {state_of(row).id}, gnubg {row['gnubg']} ({divide(state_of(row).id, row['gnubg'])})"
        for row in rows
        if state_of(row).id != row["gnubg"]
    ]
    assert not wrong, f"{len(wrong)} of {len(rows)} differ:\n" + "\n".join(wrong[:20])


@pytest.mark.parametrize("route", ROUTES)
def test_every_id_gnubg_writes_decodes_to_its_state(route):
    rows = [row for row in ROWS if row["route"] == route]
    wrong = [
        f"{row['gnubg']}: {MatchState.from_id(row['gnubg'])} != {state_of(row)}"
        for row in rows
        if MatchState.from_id(row["gnubg"]) != state_of(row)
    ]
    assert not wrong, f"{len(wrong)} of {len(rows)} differ:\n" + "\n".join(wrong[:20])


def test_our_old_ids_still_decode_with_bit_67_clear_read_as_jacoby_in_use():
    # The old form did not record the Jacoby setting: bit 67 at 0 means "in use" to gnubg and us.
    for row in ROWS:
        old = MatchState.from_id(old_form(row))
        assert old == dataclasses.replace(state_of(row), jacoby=True), old_form(row)
        if row["state"]["jacoby"]:
            assert old.id == row["gnubg"], old_form(row)


def test_gnubg_reads_our_old_ids_as_we_do():
    # gnubg was given the old ID and wrote its own: we turn the old ID into the same text.
    rows = [row for row in ROWS if row["route"] == "set matchid"]
    assert any(row["old_id"] != row["gnubg"] for row in rows)
    for row in rows:
        assert row["old_id"] == old_form(row)
        assert MatchState.from_id(row["old_id"]).id == row["gnubg"], row


def test_the_issue_example_money_game_with_jacoby_off():
    row = next(r for r in ROWS if r.get("input") == "XGID=-----aEAACA-eA--abadA-aB--:2:0:-1:13:0:0:0:0:10")
    assert row["gnubg"] == "MoEFAAAAAAAE"
    assert state_of(row).id == "MoEFAAAAAAAE"
    assert MatchState.from_id("MoEMAAAAAAAA") == dataclasses.replace(state_of(row), jacoby=True)


def test_gnubg_writes_the_larger_die_first_and_bit_67_as_jacoby_not_in_use():
    for row in ROWS:
        written = bits_of(row["gnubg"])
        assert written["die_1"] >= written["die_2"], row
        assert written["bit_67"] == (not row["state"]["jacoby"]), row
        assert base64.b64decode(row["gnubg"])[8] >> 3 == 0, row  # bits 68-72 stay 0


def test_the_table_covers_every_kind_of_state():
    states = [state_of(row) for row in ROWS]
    given_dice = [row["state"]["dice"] for row in ROWS if row["state"]["dice"]]
    assert len(ROWS) >= 500
    assert {s.game_state for s in states} == set(GameState)
    assert {s.resignation for s in states if s.game_state == GameState.PLAYING} == set(Resignation)
    assert {s.resignation for s in states if s.game_state == GameState.RESIGNED} == set(Resignation)
    assert {(s.length == 0, s.jacoby) for s in states} == {(True, True), (True, False), (False, True), (False, False)}
    assert len({s.length for s in states}) >= 10 and len({s.scores for s in states if s.length}) >= 100
    assert any(s.crawford for s in states) and any(s.length - 1 in s.scores and not s.crawford for s in states)
    assert {s.cube_owner for s in states} == {None, 0, 1} and max(s.cube_value for s in states) == 2**15
    assert {(s.on_roll, s.turn) for s in states} == {(0, 0), (0, 1), (1, 0), (1, 1)}
    assert any(s.double_offered and s.resignation for s in states) and any(s.double_offered for s in states)
    assert any(s.dice is None for s in states) and any(a == b for a, b in given_dice)
    assert any(a < b for a, b in given_dice) and any(a > b for a, b in given_dice)
    assert {row["route"] for row in ROWS} == set(ROUTES)
