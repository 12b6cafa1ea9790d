"""Every scenario log replays to its expected summary through `flask --app app replay`."""

from __future__ import annotations

import json
import pathlib

import pytest

from app import create_app
from tests.scenarios import SCENARIOS


def _scenarios() -> list[pathlib.Path]:
    return sorted(SCENARIOS.glob("*.json"))


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
