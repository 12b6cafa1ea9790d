"""GNU Backgammon's judgement of a table's board games: each decision's error, each player's totals.

Checker plays: gnubg's own ``analyse match`` of the project's ``.mat`` record of the game (its
default analysis, 2-ply), each play then given to whoever moved (the box, or the captain or
acting captain). Cube decisions: ``cfevaluate`` at 2-ply of each member's cube as a money game
at its value and owner. Errors are in EMG (equity normalised to a one-cube money game), >= 0.
Rates are in mEMG per decision as gnubg counts them: checker error per unforced play, cube error
per close or actual cube decision (gnubg's "close": the best action is within 0.16 of doubling).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from chouette.analysis.decisions import ANSWER, DOUBLE, MOVE, Decision, game_decisions
from chouette.records import write_mat
from chouette.records.tables import table_records
from chouette.table import Settings, fold

CLOSE = 0.16

Runner = Callable[[dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class Judged:
    """A decision and gnubg's verdict: the best action, the error (EMG) and whether it counts."""

    decision: Decision
    best: str
    error: float
    counted: bool  # an unforced play; a close or actual cube decision
    equities: tuple[float, ...] = ()  # play: (best, played); cube: (no double, take, drop)

    def to_dict(self) -> dict[str, Any]:
        return {**self.decision.to_dict(), "best": self.best, "error": self.error,
                "counted": self.counted, "equities": list(self.equities)}


def request_for(settings: Settings | Mapping[str, Any] | None, events: Sequence[Mapping[str, Any]],
                games: Sequence[int] | None = None) -> tuple[dict[str, Any], dict[int, list[Decision]]]:
    """The runner's request for the finished board games of a log (``games`` keeps those numbers).

    Raises:
        TableError: the log is malformed or the rules refuse an event.
        RecordError: a game's record does not replay.
    """
    found = game_decisions(settings, events)
    if games is not None:
        found = {n: d for n, d in found.items() if n in set(games)}
    # The box's decisions are given the name of the game's box player.
    boxes = {record.number: record.box for record in fold(settings, events).games} if found else {}
    found = {n: [_named(d, boxes.get(n)) for d in decisions] for n, decisions in found.items()}
    request: dict[str, Any] = {"games": []}
    for number, decisions in found.items():
        records = table_records(settings, events, games=[number])
        cube = [{"position_id": d.position_id, "value": d.value, "owner": d.owner, "jacoby": d.jacoby}
                for d in decisions if d.kind != MOVE]
        request["games"].append({"key": number, "mat": write_mat(records[0]) if records else "",
                                 "jacoby": bool(records and records[0].jacoby), "cube": cube})
    return request, found


def judge(found: dict[int, list[Decision]], answer: dict[str, Any]) -> dict[int, list[Judged]]:
    """Each game's decisions with gnubg's verdict, in the game's order.

    Raises:
        ValueError: gnubg's plays do not follow the game's (a record out of step).
    """
    by_key = {game["key"]: game for game in answer.get("games", [])}
    judged: dict[int, list[Judged]] = {}
    for number, decisions in found.items():
        game = by_key.get(number) or {"moves": [], "cube": []}
        plays = iter(game["moves"])
        cubes = iter(game["cube"])
        out = []
        for decision in decisions:
            if decision.kind == MOVE:
                out.append(_play(decision, next(plays, None), number))
            else:
                out.append(_cube(decision, next(cubes)))
        judged[number] = out
    return judged


def _play(decision: Decision, row: dict[str, Any] | None, number: int) -> Judged:
    if row is None or row["position_id"] != decision.position_id or sorted(row["dice"]) != sorted(
            decision.dice or ()):
        raise ValueError(f"game {number}: gnubg's play {row and row['position_id']} is not the "
                         f"game's {decision.position_id} (move {decision.index + 1})")
    if "best_equity" not in row:
        return Judged(decision, decision.played, 0.0, False)
    best, played = float(row["best_equity"]), float(row["played_equity"])
    return Judged(decision, str(row["best"]), max(0.0, best - played), bool(row["unforced"]),
                  (best, played))


def _cube(decision: Decision, row: dict[str, Any]) -> Judged:
    optimal = float(row["optimal"])
    no_double, take, drop = float(row["no_double"]), float(row["take"]), float(row["drop"])
    doubled = min(take, drop)  # the doubler's equity after the right answer
    equities = (no_double, take, drop)
    if decision.kind == DOUBLE:
        best = "double" if doubled > no_double else "no double"
        played = doubled if decision.played == "double" else no_double
        error = max(0.0, max(no_double, doubled) - played)
        close = optimal - min(take, 1.0) < CLOSE
        return Judged(decision, best, error, decision.played == "double" or close or error > 0, equities)
    assert decision.kind == ANSWER
    best = "take" if take <= drop else "drop"
    played = take if decision.played == "take" else drop
    return Judged(decision, best, max(0.0, played - doubled), True, equities)


def totals(judged: dict[int, list[Judged]]) -> dict[str, dict[str, Any]]:
    """Each player's figures: counted plays and cube decisions, error totals (EMG) and rates (mEMG)."""
    players: dict[str, dict[str, Any]] = {}
    for decisions in judged.values():
        for item in decisions:
            row = players.setdefault(item.decision.player, {
                "moves": 0, "checker_error": 0.0, "cube_decisions": 0, "cube_error": 0.0})
            if item.decision.kind == MOVE:
                row["moves"] += int(item.counted)
                row["checker_error"] += item.error
            else:
                row["cube_decisions"] += int(item.counted)
                row["cube_error"] += item.error
    for row in players.values():
        row["checker_rate"] = _rate(row["checker_error"], row["moves"])
        row["cube_rate"] = _rate(row["cube_error"], row["cube_decisions"])
        row["checker_error"] = round(row["checker_error"], 6)
        row["cube_error"] = round(row["cube_error"], 6)
    return players


def _rate(error: float, count: int) -> float:
    return round(error / count * 1000, 3) if count else 0.0


def analyse_log(settings: Settings | Mapping[str, Any] | None, events: Sequence[Mapping[str, Any]],
                runner: Runner, games: Sequence[int] | None = None) -> dict[int, list[Judged]]:
    """Judge the finished board games of a log with ``runner`` (``chouette.analysis.runner.run``)."""
    request, found = request_for(settings, events, games)
    if not found:
        return {}
    return judge(found, runner(request))


def _named(decision: Decision, box: str | None) -> Decision:
    if decision.player != "box" or box is None:
        return decision
    return replace(decision, player=box)


__all__ = ["Judged", "analyse_log", "judge", "request_for", "totals"]
