"""A move (the whole play of a roll) as a small immutable value, and its notation both ways.

Notation (docs/rules.md 1.1): ``24/18 13/11*``, ``bar/22``, ``6/off``, ``6/4(2)``, chained steps
``13/7*/5``. Parsing also takes ``25`` for the bar, ``0`` for off, ``-`` for ``/``, any case,
commas and extra spaces. A ``Move`` remembers the single-die steps when it comes from
``legal_moves``; a parsed one knows only what was written (``24/14`` does not say by which
intermediate point), and ``match_move`` resolves it against the legal plays.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from itertools import pairwise
from typing import Any

from chouette.engine.errors import NotationError

# One path of one checker: the start, then (point, hit) for each landing kept in the notation.
Path = tuple[tuple[int, bool], ...]

_NODE = r"(bar|off|\d{1,2})(\*?)"
_TOKEN = re.compile(rf"{_NODE}((?:/{_NODE})+)(?:\((\d)\))?")
_REST = re.compile(_NODE)


def _name(point: int) -> str:
    return "bar" if point == 25 else "off" if point == 0 else str(point)


class Move:
    """One play: a tuple of single-die (or, when parsed, written) steps ``(from, to, hit)``.

    Two moves are equal when they are written the same way.

    >>> Move.parse("13/7*/5 8/5")
    Move.parse('13/7*/5 8/5')
    >>> str(Move.parse("6/4 6/4"))
    '6/4(2)'
    """

    # _steps, _paths and _lazy are filled on demand: a slot left unset costs nothing to create,
    # and legal_moves builds dozens of moves per call.
    __slots__ = ("_lazy", "_paths", "_steps")

    def __init__(self, steps: Iterable[tuple[int, int, bool]]) -> None:
        self._steps: tuple[tuple[int, int, bool], ...] = steps if type(steps) is tuple else tuple(steps)
        self._paths: tuple[Path, ...]
        # From the doubles search: (die, opposing counts per mover's point, source points...).
        self._lazy: tuple[Any, ...]

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a move in GNU Backgammon's notation or a usual variant.

        Raises:
            NotationError: the text cannot be read as a move (it names the input).
        """
        if not isinstance(text, str):
            raise NotationError("move {move!r}: expected a string", move=text)
        clean = re.sub(r"\s*[/\-]\s*", "/", text.strip().lower())
        clean = re.sub(r"\s+(?=[*(])|(?<=\()\s+|\s+(?=\))", "", clean)
        steps: list[tuple[int, int, bool]] = []
        for token in re.split(r"[\s,;]+", clean) if clean else []:
            match = _TOKEN.fullmatch(token)
            if not match:
                raise NotationError("move {move!r}: cannot read {token!r}", move=text, token=token)
            nodes = [(match.group(1), match.group(2))] + _REST.findall(match.group(3))
            if nodes[0][1]:
                raise NotationError("move {move!r}: {token!r} marks a hit on its starting point", move=text, token=token)
            points = [_point(name, text, token) for name, _star in nodes]
            if 0 in points[:-1] or 25 in points[1:]:
                raise NotationError("move {move!r}: in {token!r} the bar can only start and off only end",
                                      move=text, token=token)
            if any(a <= b for a, b in pairwise(points)):
                raise NotationError("move {move!r}: in {token!r} a checker must move toward home",
                                      move=text, token=token)
            repeat = int(match.group(6) or 1)
            if not 1 <= repeat <= 4:
                raise NotationError("move {move!r}: repeat ({repeat}) is not 1 to 4", move=text, repeat=repeat)
            hops = [(points[i], points[i + 1], bool(nodes[i + 1][1])) for i in range(len(points) - 1)]
            steps.extend(hops * repeat)
        return cls(steps)

    @property
    def steps(self) -> tuple[tuple[int, int, bool], ...]:
        """The steps as given: single-die steps from ``legal_moves``, written hops when parsed."""
        try:
            return self._steps
        except AttributeError:
            pass
        die, opp_at, *sources = self._lazy
        hit: set[int] = set()
        steps = []
        # Highest source first is always a legal order of the same steps.
        for p in sorted(sources, reverse=True):
            q = max(p - die, 0)
            # A blot is hit by the first checker landing there, not by the next ones.
            blot = q > 0 and opp_at[q] == 1
            steps.append((p, q, blot and q not in hit))
            if blot:
                hit.add(q)
        self._steps = tuple(steps)
        return self._steps

    @property
    def paths(self) -> tuple[Path, ...]:
        """Canonical form: one path per checker, intermediate points kept only where it hits."""
        try:
            return self._paths
        except AttributeError:
            self._paths = _canonical(self.steps)
            return self._paths

    def hops(self) -> list[tuple[int, int, bool]]:
        """The canonical paths cut at each kept point, as ``(from, to, hit)``."""
        return [(path[i][0], path[i + 1][0], path[i + 1][1]) for path in self.paths for i in range(len(path) - 1)]

    def pips(self) -> int:
        """Total distance moved; a bear-off counts only to the edge (0)."""
        return sum(path[0][0] - path[-1][0] for path in self.paths)

    def __str__(self) -> str:
        parts: list[str] = []
        paths = self.paths
        i = 0
        while i < len(paths):
            n = 1
            while i + n < len(paths) and paths[i + n] == paths[i]:
                n += 1
            path = paths[i]
            text = _name(path[0][0]) + "".join(f"/{_name(p)}{'*' if hit else ''}" for p, hit in path[1:])
            parts.append(text + (f"({n})" if n > 1 else ""))
            i += n
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and self.paths == other.paths

    def __hash__(self) -> int:
        return hash(self.paths)

    def __len__(self) -> int:
        return len(self.steps)

    def __bool__(self) -> bool:
        return bool(self.steps)


def lazy_double(lazy: tuple[Any, ...], _new: Callable[[type], Move] = object.__new__) -> Move:
    """A play of a double from the search: ``(die, opp_at, *sources)``; steps come on demand."""
    move = _new(Move)
    move._lazy = lazy
    return move


def _point(name: str, text: str, token: str) -> int:
    if name == "bar":
        return 25
    if name == "off":
        return 0
    value = int(name)
    if value > 25:
        raise NotationError("move {move!r}: {token!r} names point {point}; points are 1 to 24",
                            move=text, token=token, point=value)
    return value


def _canonical(steps: tuple[tuple[int, int, bool], ...]) -> tuple[Path, ...]:
    """Chain the steps per checker (highest start first) and drop non-hit intermediate points."""
    chains: list[list[tuple[int, bool]]] = []
    for p, q, hit in sorted(steps, key=lambda s: (-s[0], -s[1], not s[2])):
        for chain in chains:
            if chain[-1][0] == p and p != 0:
                chain.append((q, hit))
                break
        else:
            chains.append([(p, False), (q, hit)])
    paths = [
        tuple([chain[0]] + [node for node in chain[1:-1] if node[1]] + [chain[-1]]) for chain in chains
    ]
    # Two checkers on the same path hit at most once, yet ``7/4*(2)`` is how it is written:
    # identical paths share their hit marks.
    marks: dict[tuple[int, ...], list[bool]] = {}
    for path in paths:
        flags = marks.setdefault(tuple(point for point, _hit in path), [False] * len(path))
        for i, (_point, hit) in enumerate(path):
            flags[i] = flags[i] or hit
    shared = [tuple(zip(points, marks[points], strict=False)) for points in (tuple(p for p, _h in path) for path in paths)]
    # GNU Backgammon's order: highest start first, then the shortest path from that start.
    shared.sort(key=lambda path: [-point for point, _hit in path])
    return tuple(shared)
