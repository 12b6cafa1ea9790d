"""Run INSIDE GNU Backgammon's embedded Python: ``gnubg -t -q -p gnubg_script.py``.

The app never imports this file (nor gnubg): ``chouette.analysis.runner`` starts gnubg as a
separate program with this script, the JSON input in the file named by ``CHOUETTE_ANALYSIS_IN``
and the JSON output written to ``CHOUETTE_ANALYSIS_OUT``. It imports only the standard library
and gnubg's own module.

Input: ``{"games": [{"key": K, "mat": ".mat text of the game", "jacoby": false, "cube": [{"position_id": ...,
"value": 2, "owner": "centre" | "on_roll" | "opponent", "jacoby": false, "beavers": false}, ...]}]}``.
Output: ``{"games": [{"key": K, "moves": [...], "cube": [...]}], "error": null}``: each
checker play of the game as gnubg's own ``analyse match`` judged it (default analysis level,
2-ply), and each cube decision as ``cfevaluate`` gives it at the analysis's cube level.
"""

import json
import os
import tempfile
import traceback
from typing import Any

import gnubg  # type: ignore[import-not-found]  # only inside gnubg

OWNERS = {"centre": -1, "on_roll": 0, "opponent": 1}


def _text(move: Any, board: Any) -> str:
    try:
        return gnubg.movetupletostring(tuple(tuple(step) for step in move), board)
    except Exception:  # noqa: BLE001 - a notation failure must not lose the analysis
        return " ".join(f"{a}/{b}" for a, b in move)


def _moves(mat_text: str, folder: str, jacoby: bool) -> list[dict[str, Any]]:
    path = os.path.join(folder, "game.mat")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(mat_text)
    # gnubg gives a money session its global Jacoby rule: the table's, for this game.
    gnubg.command("set jacoby " + ("on" if jacoby else "off"))
    gnubg.command(f"import mat {path}")
    gnubg.command("analyse match")
    match = gnubg.match(analysis=1, statistics=0)
    found = []
    for game in match.get("games", [])[:1]:
        for entry in game.get("game", []):
            if entry.get("action") != "move" or not entry.get("move"):
                continue
            analysis = entry.get("analysis") or {}
            candidates = analysis.get("moves") or []
            board = gnubg.positionfromid(entry["board"])
            row = {"position_id": entry["board"], "dice": list(entry["dice"]),
                   "unforced": len(candidates) > 1, "played": _text(entry["move"], board)}
            if candidates:
                played = candidates[analysis.get("imove", 0)]
                best = candidates[0]
                row.update(best=_text(best["move"], board), best_equity=best["score"],
                           played_equity=played["score"])
            found.append(row)
    return found


def _cube(decision: dict[str, Any]) -> dict[str, Any]:
    gnubg.command("set jacoby " + ("on" if decision.get("jacoby") else "off"))
    board = gnubg.positionfromid(decision["position_id"])
    info = dict(gnubg.cubeinfo(int(decision["value"]), OWNERS[decision["owner"]], 0))
    # gnubg's own verdict then names a beaver where one is right ("No double, beaver").
    info["beavers"] = 1 if decision.get("beavers") else 0
    context = {"cubeful": 1, "plies": 2, "deterministic": 1, "prune": 1, "noise": 0.0}
    optimal, no_double, take, drop, _, text = gnubg.cfevaluate(board, info, context)
    return {"optimal": optimal, "no_double": no_double, "take": take, "drop": drop, "text": text}


def main() -> None:
    with open(os.environ["CHOUETTE_ANALYSIS_IN"], encoding="utf-8") as handle:
        request = json.load(handle)
    out: dict[str, Any] = {"games": [], "error": None}
    try:
        gnubg.command("set threads 1")
        gnubg.command("set confirm default no")
        gnubg.command("set analysis cube off")
        gnubg.command("set analysis luck off")
        with tempfile.TemporaryDirectory() as folder:
            for game in request.get("games", []):
                moves = _moves(game["mat"], folder, bool(game.get("jacoby"))) if game.get("mat") else []
                cube = [_cube(d) for d in game.get("cube", [])]
                out["games"].append({"key": game.get("key"), "moves": moves, "cube": cube})
    except Exception:  # noqa: BLE001 - reported to the caller as text
        out["error"] = traceback.format_exc()
    with open(os.environ["CHOUETTE_ANALYSIS_OUT"], "w", encoding="utf-8") as handle:
        json.dump(out, handle)


main()
