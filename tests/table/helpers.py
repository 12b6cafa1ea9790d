"""Small builders for table tests: seat players in a known order, apply events, read money."""

from __future__ import annotations

from typing import Any

from chouette.standings import money
from chouette.table import TableState, apply_event, new_table


def seated(order: str | list[str] = "ABCDE", **settings: Any) -> TableState:
    """A table whose players joined and were ordered as given: box, captain, line."""
    state = new_table(settings)
    names = list(order)
    for name in names:
        state = apply_event(state, {"type": "join", "player": name})
    return apply_event(state, {"type": "order", "players": names})


def run(state: TableState, *events: dict[str, Any]) -> TableState:
    """Apply events in order."""
    for event in events:
        state = apply_event(state, event)
    return state


def double(by: str, *cubes: str) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "double", "by": by}
    if cubes:
        event["cubes"] = list(cubes)
    return event


def take(cube: str) -> dict[str, Any]:
    return {"type": "take", "cube": cube}


def drop(cube: str) -> dict[str, Any]:
    return {"type": "drop", "cube": cube}


def beaver(cube: str) -> dict[str, Any]:
    return {"type": "beaver", "cube": cube}


def raccoon(cube: str) -> dict[str, Any]:
    return {"type": "raccoon", "cube": cube}


def result(winner: str, kind: str = "single") -> dict[str, Any]:
    return {"type": "result", "winner": winner, "kind": kind}


def join(name: str, **extra: Any) -> dict[str, Any]:
    return {"type": "join", "player": name, **extra}


def leave(name: str) -> dict[str, Any]:
    return {"type": "leave", "player": name}


def offer(name: str, accept: bool = False) -> dict[str, Any]:
    return {"type": "partner", "player": name, "accept": accept}


def seats(state: TableState) -> tuple[Any, ...]:
    """(box, partner, captain, line) as a tuple, for compact asserts."""
    return state.box, state.partner, state.captain, "".join(state.line)


def points(state: TableState) -> dict[str, int]:
    return money(state)[0]


def cents(state: TableState) -> dict[str, int]:
    return money(state)[1]
