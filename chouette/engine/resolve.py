"""Resolve what a person typed against the legal plays, and say why when it is not one of them."""

from __future__ import annotations

from chouette.engine.errors import IllegalMoveError
from chouette.engine.movegen import legal_moves, ordered_roll
from chouette.engine.moves import Move
from chouette.engine.position import BAR, OFF, Position


def _mover_after(position: Position, move: Move) -> tuple[int, ...] | None:
    """The mover's counts after the written paths, or None when a path starts on an empty point."""
    me = list(position.mover)
    for path in move.paths:
        start, end = path[0][0], path[-1][0]
        me[start] -= 1
        me[end] += 1
        if me[start] < 0:
            return None
    return tuple(me)


def _hits(move: Move) -> frozenset[int]:
    """Points where a legal move's single-die steps hit."""
    return frozenset(q for _p, q, hit in move.steps if hit)


def _written_hits(position: Position, move: Move) -> frozenset[int]:
    """Points marked ``*`` plus path ends on an opposing blot (landing there always hits)."""
    opp = position.opponent
    marked = {point for path in move.paths for point, hit in path[1:] if hit}
    ends = {path[-1][0] for path in move.paths if path[-1][0] and opp[25 - path[-1][0]] == 1}
    return frozenset(marked | ends)


def match_move(position: Position, roll: tuple[int, int], text: str | Move) -> Move:
    """The legal play with the same resulting position as ``text`` (a move as a person wrote it).

    Raises:
        DiceError: the roll is not two dice of 1..6.
        NotationError: the text cannot be read as a move.
        IllegalMoveError: it reads, but is not a legal play; the message says why when it can.

    >>> match_move(Position.initial(), (6, 5), "24/18/13")
    Move.parse('24/13')
    """
    hi, lo = ordered_roll(roll)
    typed = text if isinstance(text, Move) else Move.parse(text)
    plays = legal_moves(position, (hi, lo))
    if not plays and not typed:
        # Nothing can be played: the empty move is the only legal one (the turn passes).
        return typed
    target = _mover_after(position, typed)
    candidates = []
    if target is not None:
        for play in plays:
            me = list(position.mover)
            for p, q, _hit in play.steps:
                me[p] -= 1
                me[q] += 1
            if tuple(me) == target:
                candidates.append(play)
    if len(candidates) == 1:
        return candidates[0]
    if candidates:
        # Same checkers, different hits on the way (e.g. 24/14 through a blot or an empty point).
        wanted = _written_hits(position, typed)
        for play in candidates:
            if _hits(play) == wanted:
                return play
        fitting = sorted((p for p in candidates if _hits(p) >= wanted), key=lambda p: len(_hits(p)))
        if fitting:
            return fitting[0]
        raise _illegal(position, hi, lo, text, "the hits marked with * cannot all be made")
    raise _illegal(position, hi, lo, text, _why(position, hi, lo, typed, plays))


def _illegal(position: Position, hi: int, lo: int, text: str | Move, reason: str) -> IllegalMoveError:
    return IllegalMoveError(f"illegal move {str(text)!r} with {hi}-{lo} in position {position.id}: {reason}")


def _why(position: Position, hi: int, lo: int, typed: Move, plays: list[Move]) -> str:
    """The most specific reason found for refusing ``typed``."""
    me = position.mover
    opp = position.opponent
    if not plays:
        # Die d enters on the mover's point 25 - d, which is the opponent's point d.
        if me[BAR] and all(opp[d] >= 2 for d in (hi, lo)):
            return "no legal play: the checker on the bar cannot enter (the turn passes)"
        return "no legal play with this roll (the turn passes)"
    if not typed:
        return f"a legal play exists (e.g. {plays[0]}); passing is not allowed"
    counts = list(me)
    for path in typed.paths:
        start = path[0][0]
        if counts[start] == 0:
            where = "the bar" if start == BAR else f"point {start}"
            return f"no checker of yours on {where}"
        counts[start] -= 1
    bar_paths = sum(1 for path in typed.paths if path[0][0] == BAR)
    if me[BAR] and bar_paths < min(me[BAR], len(plays[0].steps)):
        return f"{me[BAR]} checker(s) on the bar must enter before any other checker moves"
    for path in typed.paths:
        for point, _hit in path[1:]:
            if point and opp[25 - point] >= 2:
                return f"point {point} is blocked ({opp[25 - point]} opposing checkers)"
    if any(path[-1][0] == OFF for path in typed.paths):
        outside = sum(me[7:26])
        if outside:
            return f"cannot bear off yet: {outside} checker(s) outside the home board"
    for path in typed.paths:
        start = path[0][0]
        higher = [p for p in range(start + 1, 7) if me[p]]
        if path[-1][0] == OFF and start < hi and start not in (hi, lo, hi + lo) and higher:
            return f"cannot bear off from {start} with a larger die while checkers are on the {higher[-1]}"
    used = len(plays[0].steps)
    total = hi + lo if hi != lo else 4 * hi
    pips = typed.pips()
    if pips > total:
        return f"the move covers {pips} pips but {hi}-{lo} gives {total}"
    dice_pips = {hi, lo, hi + lo} if hi != lo else {hi * n for n in range(1, 5)}
    for path in typed.paths:
        distance = path[0][0] - path[-1][0]
        if path[-1][0] != OFF and distance not in dice_pips:
            return f"no die or dice of {hi}-{lo} move a checker {distance} pips ({path[0][0]} to {path[-1][0]})"
    bears_off = any(path[-1][0] == OFF for path in typed.paths)
    if hi != lo:
        one_die = len(typed.paths) == 1 and pips <= hi
        if used == 2 and one_die:
            return f"must use both dice when a legal play does ({_examples(plays)})"
        if used == 1 and plays[0].pips() == hi and pips == lo and not bears_off:
            return f"only one die can be played, so it must be the larger ({hi})"
    elif pips < used * hi and not bears_off:
        return f"must play {used} of the four {hi}s"
    if bears_off:
        return f"this bear-off is not allowed ({_examples(plays)})"
    return f"not one of the {len(plays)} legal plays ({_examples(plays)})"


def _examples(plays: list[Move]) -> str:
    """A short hint: the legal plays when there are few, else one of them."""
    if len(plays) <= 3:
        return "legal: " + ", ".join(str(play) for play in plays)
    return f"e.g. {plays[0]}"
