"""Check a record with GNU Backgammon itself: import it, replay it through gnubg's rules."""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess
import tempfile
from typing import Any

from chouette.engine import Position, apply_move, outcome
from chouette.engine.moves import Move
from chouette.records import (
    Double,
    Drop,
    Record,
    Take,
    Turn,
    replay,
    write_mat,
    write_sgf,
)
from chouette.records.model import safe_name

SCRIPT = pathlib.Path(__file__).with_name("gnubg_replay.py")
GNUBG = shutil.which("gnubg") or "/usr/games/gnubg"


def _point(point: int) -> str:
    return "bar" if point == 25 else "off" if point == 0 else str(point)


def spec_of(record: Record, fmt: str, path: pathlib.Path) -> dict[str, Any]:
    """What gnubg must read in the file: every game's actions, positions and result."""
    games = []
    for number, game in enumerate(record.games, start=1):
        position = Position.initial()
        actions: list[dict[str, Any]] = []
        for item in replay(game, number):
            if isinstance(item, Turn):
                text = " ".join(f"{_point(a)}/{_point(b)}" for a, b, _hit in item.steps)
                before = position.id
                position = apply_move(position, Move(item.steps))
                over = outcome(position) is not None
                position = position.swap()
                actions.append({"type": "move", "player": item.play.player,
                                "dice": list(item.play.dice), "text": text, "before": before,
                                "after": None if over else position.id})
            else:
                kind = "double" if isinstance(item, Double) else "take" if isinstance(item, Take) else "drop"
                assert isinstance(item, Double | Take | Drop)
                actions.append({"type": kind, "player": item.player})
        games.append({"score": [game.score_left, game.score_right], "winner": game.winner,
                      "points": game.points if game.winner is not None else 0,
                      "session_points": game.points if game.winner is not None else 0,
                      "crawford": game.crawford, "actions": actions})
    names = [safe_name(record.left).replace("Game", "game") if fmt == "mat" else safe_name(record.left),
             safe_name(record.right).replace("Game", "game") if fmt == "mat" else safe_name(record.right)]
    return {"file": str(path), "format": fmt, "jacoby": record.jacoby,
            "match_length": record.match_length, "names": names, "games": games}


def check_with_gnubg(record: Record, fmt: str, *, text: str | None = None) -> list[str]:
    """The problems gnubg finds in the record written as ``fmt`` ("mat" or "sgf"); [] if none.

    ``text`` replaces the written file (to show that the check sees a wrong one).
    """
    with tempfile.TemporaryDirectory() as folder:
        root = pathlib.Path(folder)
        path = root / f"record.{fmt}"
        if text is None:
            text = write_mat(record) if fmt == "mat" else write_sgf(record)
        path.write_text(text, encoding="utf-8")
        (root / "spec.json").write_text(json.dumps(spec_of(record, fmt, path)))
        home = root / "home"
        home.mkdir()
        env = {**os.environ, "HOME": str(home), "RECORD_CHECK": str(root / "spec.json"),
               "RECORD_CHECK_OUT": str(root / "out.json")}
        run = subprocess.run([GNUBG, "-t", "-q", "-r", "-p", str(SCRIPT)], env=env, cwd=root,
                             capture_output=True, text=True, check=False)
        output = run.stdout + run.stderr
        if os.environ.get("RECORD_CHECK_ECHO"):
            pathlib.Path(os.environ["RECORD_CHECK_ECHO"]).write_text(output)
        errors = [line for line in output.splitlines() if any(word in line for word in (
            "had errors", "Invalid move", "Unrecognised move", "not a valid", "syntax error",
            "Illegal or unparsable", "Traceback", "Error"))]
        out = root / "out.json"
        if not out.exists():
            return [f"gnubg wrote no result (exit {run.returncode}):", *output.splitlines()[-20:]]
        return errors + json.loads(out.read_text())
