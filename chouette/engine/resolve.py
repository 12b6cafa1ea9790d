"""Resolve what a person typed against the legal plays, and say why when it is not one of them."""

from __future__ import annotations

from chouette.engine.errors import IllegalMoveError, Phrase
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
        raise _illegal(position, hi, lo, text, Phrase("the hits marked with * cannot all be made"))
    raise _illegal(position, hi, lo, text, _why(position, hi, lo, typed, plays))


def _illegal(position: Position, hi: int, lo: int, text: str | Move, reason: Phrase) -> IllegalMoveError:
    return IllegalMoveError("illegal move {move!r} with {hi}-{lo} in position {position_id}: {reason}",
                            move=str(text), hi=hi, lo=lo, position_id=position.id, reason=reason)


def _why(position: Position, hi: int, lo: int, typed: Move, plays: list[Move]) -> Phrase:
    """The most specific reason found for refusing ``typed``."""
    me = position.mover
    opp = position.opponent
    if not plays:
        # Die d enters on the mover's point 25 - d, which is the opponent's point d.
        if me[BAR] and all(opp[d] >= 2 for d in (hi, lo)):
            return Phrase("no legal play: the checker on the bar cannot enter (the turn passes)")
        return Phrase("no legal play with this roll (the turn passes)")
    if not typed:
        return Phrase("a legal play exists (e.g. {play}); passing is not allowed", play=str(plays[0]))
    counts = list(me)
    for path in typed.paths:
        start = path[0][0]
        if counts[start] == 0:
            if start == BAR:
                return Phrase("no checker of yours on the bar")
            return Phrase("no checker of yours on point {point}", point=start)
        counts[start] -= 1
    bar_paths = sum(1 for path in typed.paths if path[0][0] == BAR)
    if me[BAR] and bar_paths < min(me[BAR], len(plays[0].steps)):
        return Phrase("{count} checker(s) on the bar must enter before any other checker moves", count=me[BAR])
    for path in typed.paths:
        for point, _hit in path[1:]:
            if point and opp[25 - point] >= 2:
                return Phrase("point {point} is blocked ({count} opposing checkers)",
                              point=point, count=opp[25 - point])
    if any(path[-1][0] == OFF for path in typed.paths):
        outside = sum(me[7:26])
        if outside:
            return Phrase("cannot bear off yet: {count} checker(s) outside the home board", count=outside)
    for path in typed.paths:
        start = path[0][0]
        higher = [p for p in range(start + 1, 7) if me[p]]
        if path[-1][0] == OFF and start < hi and start not in (hi, lo, hi + lo) and higher:
            return Phrase("cannot bear off from {point} with a larger die while checkers are on the {higher}",
                          point=start, higher=higher[-1])
    used = len(plays[0].steps)
    total = hi + lo if hi != lo else 4 * hi
    pips = typed.pips()
    if pips > total:
        return Phrase("the move covers {pips} pips but {hi}-{lo} gives {total}", pips=pips, hi=hi, lo=lo, total=total)
    dice_pips = {hi, lo, hi + lo} if hi != lo else {hi * n for n in range(1, 5)}
    for path in typed.paths:
        distance = path[0][0] - path[-1][0]
        if path[-1][0] != OFF and distance not in dice_pips:
            return Phrase("no die or dice of {hi}-{lo} move a checker {distance} pips ({start} to {end})",
                          hi=hi, lo=lo, distance=distance, start=path[0][0], end=path[-1][0])
    bears_off = any(path[-1][0] == OFF for path in typed.paths)
    if hi != lo:
        one_die = len(typed.paths) == 1 and pips <= hi
        if used == 2 and one_die:
            return Phrase("must use both dice when a legal play does ({examples})", examples=_examples(plays))
        if used == 1 and plays[0].pips() == hi and pips == lo and not bears_off:
            return Phrase("only one die can be played, so it must be the larger ({hi})", hi=hi)
    elif pips < used * hi and not bears_off:
        return Phrase("must play {count} of the four {hi}s", count=used, hi=hi)
    if bears_off:
        return Phrase("this bear-off is not allowed ({examples})", examples=_examples(plays))
    return Phrase("not one of the {count} legal plays ({examples})", count=len(plays), examples=_examples(plays))


def _examples(plays: list[Move]) -> Phrase:
    """A short hint: the legal plays when there are few, else one of them."""
    if len(plays) <= 3:
        return Phrase("legal: {plays}", plays=", ".join(str(play) for play in plays))
    return Phrase("e.g. {play}", play=str(plays[0]))
