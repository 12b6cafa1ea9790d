"""GNU Backgammon's judgement of a table's board games: each decision's error, each player's totals.

Checker plays: gnubg's own ``analyse match`` of the project's ``.mat`` record of the game (its
default analysis, 2-ply), each play then given to whoever moved (the box, or the captain or
acting captain). Cube decisions: ``cfevaluate`` at 2-ply of each member's cube as a money game
at its value and owner. Errors are in EMG (equity normalised to a one-cube money game), >= 0.
Rates are in mEMG per decision as gnubg counts them: checker error per unforced play, cube error
per close or actual cube decision (gnubg's "close": the best action is within 0.16 of doubling).

Beavers and raccoons (where the table plays them) are judged from the same three equities
``cfevaluate`` gives for the double (no double ND, double/take DT, double/pass DP, the doubler's,
normalised to the cube before the double), as gnubg decides them: a beaver is right when the
taker's equity after a take is positive (DT <= 0, gnubg's "beaver" verdicts). After a beaver the
cube is worth twice as much with the same owner, so the doubler's equity is 2 DT if the doubler
takes it, -2 if the doubler drops it (paying the value before the beaver), and, where raccoons
are played, min(4 DT, 4) after a raccoon (the beaverer takes it, or drops paying 4). Each answer
is judged against the best of its choices; a double against the best answer to it (with beavers,
a double the taker should beaver is worth max(2 DT, -2) to the doubler: gnubg's "No double,
beaver" when that is below ND). An extra cube (docs/rules.md 2.7) is a 2-cube the giver holds on
the box's side, owned by the taker, for a fee of one point: worth DT - 1 to the giver (DT of the
box's double of the taker), against 0 for giving none.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from chouette.analysis.decisions import ANSWER, DOUBLE, EXTRA, MOVE, Decision, game_decisions
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
    verdict: str = ""  # gnubg's own words on a cube decision ("No double, beaver")

    def to_dict(self) -> dict[str, Any]:
        found = {**self.decision.to_dict(), "best": self.best, "error": self.error,
                 "counted": self.counted, "equities": list(self.equities)}
        if self.verdict:
            found["verdict"] = self.verdict
        return found


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
        cube = [{"position_id": d.position_id, "value": d.value, "owner": d.owner, "jacoby": d.jacoby,
                 "beavers": d.beavers} for d in decisions if d.kind != MOVE]
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
    equities = (no_double, take, drop)
    verdict = str(row.get("text") or "")
    if decision.kind == EXTRA:
        # The giver's equity: the box's side of a 2-cube the taker owns, less the fee of 1.
        choices = {"extra": take - 1.0, "no extra": 0.0}
        best, error = _best(choices, decision.played)
        return Judged(decision, best, error, decision.played == "extra" or error > 0
                      or abs(take - 1.0) < CLOSE, equities, verdict)
    doubled = answered(take, drop, decision.beavers, decision.raccoons)
    if decision.kind == DOUBLE:
        best = "double" if doubled > no_double else "no double"
        played = doubled if decision.played == "double" else no_double
        error = max(0.0, max(no_double, doubled) - played)
        close = optimal - min(take, 1.0) < CLOSE
        return Judged(decision, best, error, decision.played == "double" or close or error > 0,
                      equities, verdict)
    assert decision.kind == ANSWER
    best, error = _best(answer_choices(decision, take, drop), decision.played)
    return Judged(decision, best, error, True, equities, verdict)


def _beavered(take: float, drop: float, raccoons: bool) -> float:
    """The first doubler's equity after a beaver, answered at best (take, drop, raccoon)."""
    return max(answer_choices_of(1, take, drop, False, raccoons).values())


def answered(take: float, drop: float, beavers: bool, raccoons: bool) -> float:
    """The doubler's equity after a double answered at best (take, drop, beaver)."""
    found = min(take, drop)
    return min(found, _beavered(take, drop, raccoons)) if beavers else found


def answer_choices(decision: Decision, take: float, drop: float) -> dict[str, float]:
    """The answering side's equity for each answer it could give (normalised to the cube before
    the double): to a double (level 0), to a beaver (1), to a raccoon (2)."""
    return answer_choices_of(decision.level, take, drop, decision.beavers, decision.raccoons)


def answer_choices_of(level: int, take: float, drop: float, beavers: bool,
                      raccoons: bool) -> dict[str, float]:
    if level == 0:
        choices = {"take": -take, "drop": -drop}
        if beavers:
            choices["beaver"] = -_beavered(take, drop, raccoons)
        return choices
    if level == 1:  # the first doubler: the cube at twice its value, owned by the beaverer
        choices = {"take": 2 * take, "drop": -2.0 * drop}
        if raccoons:
            choices["raccoon"] = min(4 * take, 4.0 * drop)
        return choices
    return {"take": -4 * take, "drop": -4.0 * drop}  # the beaverer answers the raccoon


def _best(choices: dict[str, float], played: str) -> tuple[str, float]:
    """The best choice and the error (>= 0) of ``played``."""
    best = max(choices, key=lambda name: choices[name])
    return best, max(0.0, choices[best] - choices.get(played, choices[best]))


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


__all__ = ["Judged", "analyse_log", "answer_choices", "answered", "judge", "request_for", "totals"]
