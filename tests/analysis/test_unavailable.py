"""Without GNU Backgammon the app works and says the analysis is not available."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from chouette.analysis import runner
from chouette.analysis.command import analyse_command
from tests.analysis.games import short_game


def test_without_gnubg_the_command_says_the_analysis_is_not_available(tmp_path, monkeypatch):
    monkeypatch.setenv("GNUBG", str(tmp_path / "no-gnubg"))
    path = tmp_path / "log.json"
    path.write_text(json.dumps(short_game().log))
    result = CliRunner().invoke(analyse_command, [str(path)])
    assert result.exit_code == 2
    assert "the analysis is not available" in result.output
    assert not runner.available()
    with pytest.raises(runner.AnalysisUnavailable, match="not installed"):
        runner.run({"games": []})


def test_a_log_that_is_not_a_table_log_is_refused(tmp_path):
    path = tmp_path / "log.json"
    path.write_text("[1, 2]")
    result = CliRunner().invoke(analyse_command, [str(path)])
    assert result.exit_code == 1
    assert '"events" list' in result.output


def test_without_gnubg_the_worker_says_so_and_stops(tmp_path, monkeypatch):
    from chouette.analysis.worker import analysis_worker_command

    monkeypatch.setenv("GNUBG", str(tmp_path / "no-gnubg"))
    result = CliRunner().invoke(analysis_worker_command, ["--once"])
    assert result.exit_code == 2
    assert "the analysis is not available" in result.output
