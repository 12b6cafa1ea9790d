"""What may happen next at a table: the legal cube, partner and result events.

The web shows a button for each of these and nothing else; tests and benchmarks draw random
legal logs from them. Every candidate is checked by applying it to a copy of the state, so
this list can never disagree with the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from chouette.engine import legal_moves
from chouette.table.errors import TableError
from chouette.table.game import BOARD, KINDS
from chouette.table.state import TableState, try_event

Event = dict[str, Any]


def candidate_events(state: TableState) -> list[Event]:
    """The order-free events that may be legal now (``legal_actions`` keeps those the rules
    accept)."""
    events: list[Event] = []
    if not state.ordered:
        return events
    if state.game is None and state.needs_partner():
        nxt = state.next_partner_offer()
        if nxt is not None:
            events += [{"type": "partner", "player": nxt, "accept": a} for a in (True, False)]
        else:
            events += [{"type": "partner_draw", "player": p} for p in state.seats.line]
        return events
    game = state.game
    single = state.settings.cube_mode == "single"
    members = game.live if game else state.seats.team
    if game is not None and game.box_double is not None:
        waiting = game.box_double.waiting
        events += [{"type": a, "cube": m} for m in waiting for a in ("take", "drop", "beaver")]
        # With a cube for each member a beaver (or a raccoon) is answered at once.
        answered = [m for m in game.pending if m not in waiting]
        return events + [{"type": a, "cube": m} for m in answered
                         for a in ("take", "drop", "raccoon")]
    if game is not None and game.pending:
        answers = ("take", "drop", "beaver", "raccoon")
        targets = ["team"] if single else game.pending
        events += [{"type": a, "cube": m} for m in targets for a in answers]
        if not single and not game.box_answers:
            events += [{"type": "double", "by": m} for m in members if m not in game.pending]
        return events
    if game is not None and game.extras_open is not None:
        taker, givers = game.extras_open
        events += [{"type": "extra", "from": g, "to": taker} for g in givers]
    if single:
        events.append({"type": "double", "by": "box"})
        captain = game.acting_captain if game else state.seats.captain
        events.append({"type": "double", "by": captain})
    else:
        if len(members) > 1:
            events.append({"type": "double", "by": "box", "cubes": list(members)})
        events += [{"type": "double", "by": "box", "cubes": [m]} for m in members]
        events += [{"type": "double", "by": m} for m in members]
    if game is None or game.mode != BOARD:
        events += [{"type": "result", "winner": w, "kind": k} for w in ("box", "team") for k in KINDS]
    return events


def legal_actions(state: TableState) -> list[Event]:
    """Every legal order-free event now: partner offers, doubles, answers, results.

    Rolls and moves are not listed (dice are rolled, moves come from the engine), nor joins
    and leaves.
    """
    legal = []
    for event in candidate_events(state):
        try:
            try_event(state, event)
        except TableError:
            continue
        legal.append(event)
    return legal


def board_events(state: TableState, pick: Callable[[Sequence[Any]], Any],
                 die: Callable[[], int]) -> list[Event]:
    """The board events of one turn, drawn at random: a roll and, if it plays, a move.

    ``pick`` chooses from a sequence and ``die`` rolls one die (inject a seeded generator).
    """
    game = state.game
    if game is None or game.mode is None:
        while True:
            box, team = die(), die()
            if box != team:
                return [{"type": "opening_roll", "box": box, "team": team}] + _move(
                    try_event(state, {"type": "opening_roll", "box": box, "team": team}), pick)
    if game.dice is None:
        roll = {"type": "roll", "dice": [die(), die()]}
        after = try_event(state, roll)
        if after.game is not None and after.game.dice is None:
            return [roll]  # no legal play: the turn passed by itself
        return [roll] + _move(after, pick)
    return _move(state, pick)


def _move(state: TableState, pick: Callable[[Sequence[Any]], Any]) -> list[Event]:
    game = state.game
    assert game is not None and game.position is not None and game.dice is not None
    plays = legal_moves(game.position, game.dice)
    return [{"type": "move", "move": str(pick(plays))}]


def may_consult(state: TableState) -> list[str]:
    """Members who may advise the captain now, by the table's consulting setting (docs/rules.md 2.9).

    ``free``: every member still playing; ``forbidden``: nobody; ``after_cube``: once someone
    has doubled in this game (the rule texts: "turned, that is someone doubled", taken or
    not; automatic doubles do not count), the members whose cube is in play. A member who
    dropped is out of the game and loses the right in every setting.
    """
    game = state.game
    live = game.live if game else state.seats.team
    captain = game.acting_captain if game else state.seats.captain
    others = [m for m in live if m != captain]
    consulting = state.settings.consulting
    if consulting == "free":
        return others
    if consulting == "forbidden" or game is None:
        return []
    return others if game.doubles else []
