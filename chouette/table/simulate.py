"""Random legal table logs, for property tests and benchmarks.

Randomness is injected: ``pick`` chooses from a sequence and ``die`` rolls one die, e.g. the
methods of a seeded ``random.Random`` instance.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from chouette.table.actions import board_events, candidate_events, legal_actions
from chouette.table.errors import TableError
from chouette.table.state import TableState, apply_event, new_table

Event = dict[str, Any]


def seat_players(state: TableState, names: Sequence[str], die: Callable[[], int]) -> tuple[TableState, list[Event]]:
    """Join ``names`` and roll the starting order until no tie is left."""
    events: list[Event] = [{"type": "join", "player": n} for n in names]
    for event in events:
        state = apply_event(state, event)
    rolling = list(names)
    while not state.ordered:
        event = {"type": "order_roll", "rolls": {n: die() for n in rolling}}
        state = apply_event(state, event)
        events.append(event)
        rolling = [p for g in state.order_groups or [] if len(g) > 1 for p in g]
    return state, events


def play_game(state: TableState, pick: Callable[[Sequence[Any]], Any], die: Callable[[], int],
              *, board: bool = False, max_events: int = 2000, sample: bool = False
              ) -> tuple[TableState, list[Event]]:
    """Play one whole game of random legal events; return the state and the events.

    ``sample``: draw a candidate and keep the first the rules accept, instead of listing
    every legal event first (several times faster: long logs for benchmarks; scoresheet
    games only, and another sequence than without it for the same seed).
    """
    if sample and not board:
        return _sample_game(state, pick, die, max_events)
    events: list[Event] = []
    games = len(state.games)
    while len(state.games) == games and len(events) < max_events:
        actions = legal_actions(state)
        game = state.game
        on_board = board and not (game is None and state.needs_partner()) and (
            game is None or game.mode in (None, "board"))
        if on_board and (game is None or not game.pending) and (die() > 2 or not actions):
            batch = board_events(state, pick, die)
        elif on_board and game is not None and not game.pending:
            batch = [pick([a for a in actions if a["type"] != "result"] or actions)]
        else:
            # Results are rarer than cube actions so that games see a few cubes.
            cube = [a for a in actions if a["type"] != "result"]
            results = [a for a in actions if a["type"] == "result"]
            batch = [pick(results if results and (not cube or die() == 6) else cube)]
        for event in batch:
            state = apply_event(state, event)
            events.append(event)
    return state, events


def random_night(settings: dict[str, Any], names: Sequence[str], games: int,
                 pick: Callable[[Sequence[Any]], Any], die: Callable[[], int],
                 *, board: bool = False) -> tuple[TableState, list[Event]]:
    """A whole night: seat ``names``, then play ``games`` games of random legal events."""
    state, events = seat_players(new_table(settings), names, die)
    for _ in range(games):
        state, more = play_game(state, pick, die, board=board)
        events += more
    return state, events


def _sample_game(state: TableState, pick: Callable[[Sequence[Any]], Any], die: Callable[[], int],
                 max_events: int) -> tuple[TableState, list[Event]]:
    """``play_game(..., sample=True)``: cube actions, and a result now and then."""
    events: list[Event] = []
    games = len(state.games)
    while len(state.games) == games and len(events) < max_events:
        candidates = candidate_events(state)
        cube = [a for a in candidates if a["type"] != "result"]
        results = [a for a in candidates if a["type"] == "result"]
        first, then = (results, cube) if results and (not cube or die() == 6) else (cube, results)
        found = _first_legal(state, first, pick) or _first_legal(state, then, pick)
        if found is None:
            break
        event, state = found
        events.append(event)
    return state, events


def _first_legal(state: TableState, events: Sequence[Event], pick: Callable[[Sequence[Any]], Any]
                 ) -> tuple[Event, TableState] | None:
    """A random one of ``events`` that the rules accept, with the state after it, or None."""
    left = list(events)
    while left:
        event = pick(left)
        try:
            return event, apply_event(state, event)
        except TableError:
            left.remove(event)
    return None
