"""No log can crash the rules: any field of a legal log, or an inserted event, replaced by any
JSON value either replays or is the rules' own refusal (TableError), never a TypeError,
KeyError or ValueError from deep inside (docs/log-format.md, "Shapes")."""

from __future__ import annotations

import copy
import json
import math
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chouette.replay import summarize
from chouette.table import TableError, fold
from chouette.table.shapes import FIELDS
from chouette.table.simulate import random_night

#: Legal logs of every kind of table: (settings, events).
TABLES: list[dict[str, Any]] = [
    {},
    {"cube_mode": "single"},
    {"beavers": True, "raccoons": True, "extras": True},
    {"beavers": True, "all_but_one": "mandatory_beaver", "same_value_same_action": True},
    {"per_player_stakes": True, "jacoby": True, "automatic_doubles": 2},
    {"partner_min_players": 3, "box_retention": "net_positive", "consulting": "after_cube"},
    {"join_position": "after_next_rotation", "all_but_one": "off"},
    {"match_length": 5, "holland": True, "match_stake": "point", "cube_mode": "single",
     "partner_min_players": 0},
]


def _legal_logs() -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    logs = []
    for seed in range(24):
        rng = random.Random(seed)
        table = TABLES[seed % len(TABLES)]
        names = ["Ann", "Bob"] if table.get("match_length") else \
            ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"][:rng.randint(3, 8)]
        games = 1 if table.get("match_length") else rng.randint(1, 3)
        _state, events = random_night(table, names, games, rng.choice,
                                      lambda rng=rng: rng.randint(1, 6),
                                      board=seed % 3 == 0 or bool(table.get("match_length")))
        logs.append((table, events))
        if seed % 4 == 1 and len(events) > 12:  # an undo and a correction in the log
            logs.append((table, [*events, {"type": "undo"}]))
    return logs


LOGS = _legal_logs()
KEYS = sorted({key for fields in FIELDS.values() for key in fields}
              | {"type", "player", "by", "from", "to", "points", "cents", "rolls", "players",
                 "box", "team", "accept"})
WORDS = ["box", "team", "member", "captain", "single", "gammon", "backgammon", "Ann", "Bob",
         "Cy", "take", "drop", "nonsense", "", " ", "\x00", "A\x01", "4HPwATDgc/ABMA",
         "24/18 13/11", "1,5", *FIELDS]

scalars = (st.none() | st.booleans() | st.integers() | st.integers(-3, 40)
           | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=8)
           | st.sampled_from(WORDS))
json_values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=4), inner, max_size=3),
    max_leaves=6)


def _mutate(log: tuple[dict[str, Any], list[dict[str, Any]]], where: float, how: int,
            key: str, value: Any) -> tuple[dict[str, Any], list[Any]]:
    table, events = copy.deepcopy(log)
    index = min(int(where * len(events)), len(events) - 1)
    if how == 0:  # a field of an event, existing or not
        events[index][key] = value
    elif how == 1:  # an item inside a field that holds a list or an object
        event = events[index]
        nested = [k for k, v in event.items() if isinstance(v, list | dict) and v]
        if nested:
            inner = event[nested[0]]
            if isinstance(inner, list):
                inner[int(where * 1000) % len(inner)] = value
            else:
                inner[sorted(inner)[int(where * 1000) % len(inner)]] = value
        else:
            event["type"] = value
    elif how == 2:  # an inserted event
        events.insert(index, value if not isinstance(value, dict) or "type" in value
                      else {"type": key, **value})
    elif how == 3:  # an inserted event of a known type with one garbage field
        kind = sorted(FIELDS)[int(where * 1000) % len(FIELDS)]
        events.insert(index, {"type": kind, key: value})
    else:  # a table setting
        table = {**table, key if how == 4 else "stake_cents": value}
    return table, events


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(LOGS) - 1), st.floats(0, 1, exclude_max=True), st.integers(0, 5),
       st.sampled_from(KEYS), json_values)
def test_any_garbage_replays_or_is_refused(log, where, how, key, value):
    table, events = _mutate(LOGS[log], where, how, key, value)
    try:
        summary = summarize({"table": table, "events": events})
    except TableError as refusal:
        assert str(refusal)
    else:
        assert sum(summary["cents"].values()) == 0


@pytest.mark.parametrize(("event", "said"), [
    ({"type": ["a", "b"]}, "unknown event type ['a', 'b']"),
    ({"type": {"a": 1}}, "unknown event type {'a': 1}"),
    ({"type": "result", "winner": "team", "kind": []}, 'result: "kind" must be a text'),
    ({"type": "correct", "game": 1, "reason": "typo",
      "result": {"winner": "box", "kind": "nonsense"}}, 'correct: "result" must be a winner'),
    ({"type": "roll", "dice": [6, float("nan")]}, 'roll: "dice" must be two dice'),
    ({"type": "take", "cube": ["Bob"]}, 'take: "cube" must be a name'),
    ({"type": "double", "by": "box", "cubes": [["Bob"]]}, 'double: "cubes" must be a list of names'),
    ({"type": "move", "move": "x" * 300}, 'move: "move" must be a text of at most 200'),
    ({"type": "join", "player": "Zed", "member_id": True}, 'join: "member_id" must be a whole number'),
])
def test_the_issues_garbage_is_refused_naming_the_event_and_the_field(event, said):
    table, events = LOGS[0]
    log = [*events, event]
    with pytest.raises(TableError) as refusal:
        fold(table, log)
    assert str(refusal.value).startswith(f"event {len(log)}: {said}")


def test_the_refusal_of_a_field_is_said_in_italian(app):
    from chouette.refusals import say

    with pytest.raises(TableError) as refusal:
        fold({}, [{"type": "result", "winner": "team", "kind": []}])
    with app.test_request_context(headers={"Accept-Language": "it"}):
        assert say(refusal.value) == \
            'evento 1: result: "kind" deve essere un testo di al massimo 200 caratteri, non []'


def test_nan_and_huge_numbers_in_settings_are_refused():
    for bad in (float("nan"), float("inf"), 10**40, -1, [], {}, "x\x00"):
        with pytest.raises(TableError):
            summarize({"table": {"stake_cents": bad}, "events": []})


def test_a_json_file_of_any_shape_is_refused_or_replayed(tmp_path):
    from click.testing import CliRunner

    from chouette.replay import replay_command

    texts = ["[]", "{}", "null", '{"events": [1]}', '{"events": [{"type": NaN}]}',
             "[" * 100_000 + "]" * 100_000, '{"table": [], "events": []}',
             json.dumps({"table": {}, "events": [{"type": "join", "player": "A"}] * 2}),
             "\xff\xfe not utf-8"]
    for number, text in enumerate(texts):
        path = tmp_path / f"log{number}.json"
        path.write_bytes(text.encode("latin-1") if text.startswith("\xff") else text.encode())
        result = CliRunner().invoke(replay_command, [str(path)])
        assert result.exit_code == 1, (text[:40], result.output)
        assert "Traceback" not in result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
    good = tmp_path / "good.json"
    table, events = LOGS[1]
    good.write_text(json.dumps({"table": table, "events": events}))
    result = CliRunner().invoke(replay_command, [str(good)])
    assert result.exit_code == 0 and json.loads(result.output)["games"] >= 1
    assert not math.isnan(sum(json.loads(result.output)["cents"].values()))


@pytest.mark.parametrize("key", ["settings", "evnets", "rules"])
def test_an_unknown_key_of_the_log_is_refused_not_replayed_under_the_defaults(key):
    with pytest.raises(TableError, match=f"unknown key '{key}'"):
        summarize({key: {"stake_cents": 500}, "events": []})
