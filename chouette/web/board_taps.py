"""Tap to move: which checker may go where, after the steps already chosen (the legal plays decide).

The board's hints come from one structure, the *tap graph* of a position and roll, built here
from the engine's legal plays and walked the same way by ``static/js/board.js``:

- a node is a state of the play being composed: the position after some single-die steps and
  the dice still to play. Node 0 is the position as rolled;
- an edge is one single-die step ``from/to`` (``*`` when it hits), leading to another node;
- only steps that lie on some legal play are kept: from every node, every way on ends in a
  legal play (the engine's ``legal_moves``: every die that can be played, the larger one when
  only one can). A node without edges is a complete play.

A tap moves one checker from a point to another, possibly by several dice at once: the
targets offered from a node (``offered_targets``) are the points reachable by a chain of edges
that move the same checker. When two chains reach the same target, the one with fewer steps
wins, then the one with fewer hits, then the one found first (larger die first): a player who
wants to hit on the way taps the point of the hit. ``walk`` reads move text (what the taps
wrote, or what was typed) back into a node. The server still validates the play it receives.

Wire format (``encode``): nodes separated by ``;``, the edges of a node by a space, each edge
``from/to>next`` or ``from/to*>next`` (bar 25, off 0, in the on-roll player's numbering).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise
from typing import NamedTuple

from chouette.engine import Position, apply_move, legal_moves

BAR, OFF = 25, 0

#: One edge: (from, to, hit, next node).
Edge = tuple[int, int, bool, int]
#: A chain of edges moving one checker, as taken by a tap.
Chain = tuple[Edge, ...]


@dataclass(frozen=True)
class TapGraph:
    """The states of a play being composed and the single-die steps between them."""

    nodes: tuple[tuple[Edge, ...], ...]


def _steps(me: list[int], opp_at: list[int], die: int) -> list[tuple[int, int, bool]]:
    """The single-die steps the rules allow with ``die`` (docs/rules.md 1.3-1.5), highest point first."""
    if me[BAR]:
        sources: range | tuple[int, ...] = (BAR,)
    else:
        sources = range(24, 0, -1)
    home_only = not any(me[7:26])
    found = []
    for p in sources:
        if not me[p]:
            continue
        q = p - die
        if q >= 1:
            if opp_at[q] >= 2:
                continue
        elif not home_only or (q < 0 and any(me[p + 1 : 7])):
            # Bear off only with every checker home, and with a larger die only from the highest.
            continue
        else:
            q = OFF
        found.append((p, q, q > 0 and opp_at[q] == 1))
    return found


def tap_graph(position: Position, dice: tuple[int, int]) -> TapGraph:
    """Every way of playing ``dice`` step by step that ends in a legal play, as a graph.

    A roll with no legal play gives a single node with no edges (the turn passes).

    >>> graph = tap_graph(Position.initial(), (6, 5))
    >>> sorted((a, b) for a, b, _hit, _next in graph.nodes[0])
    [(8, 2), (8, 3), (13, 7), (13, 8), (24, 18)]
    """
    plays = legal_moves(position, dice)
    if not plays:
        return TapGraph(((),))
    # A legal play's result as the search sees it: the mover's counts, the opposing ones by point.
    finals = set()
    for play in plays:
        after = apply_move(position, play)
        finals.add((after.mover, (0, *after.opponent[24:0:-1], 0)))
    needed = len(plays[0].steps)
    opp = position.opponent
    start_me = list(position.mover)
    start_opp = [0, *opp[24:0:-1], 0]  # opposing checkers on the mover's point q
    hi, lo = max(dice), min(dice)
    start_dice = (hi,) * 4 if hi == lo else (hi, lo)

    index: dict[tuple, int] = {}
    edges: list[list[Edge]] = []
    good: dict[tuple, bool] = {}

    def visit(me: list[int], opp_at: list[int], left: tuple[int, ...], used: int) -> bool:
        """Whether some legal play goes on from here; records the node and its good edges."""
        # A whole play is the same node whichever dice it used (one die of 2-1 bearing off).
        key = (tuple(me), tuple(opp_at), () if used == needed else left)
        if key in good:
            return good[key]
        if used == needed:
            ok = (key[0], key[1]) in finals
            good[key] = ok
            if ok:
                index[key] = len(edges)
                edges.append([])
            return ok
        mine: list[tuple[int, int, bool, tuple]] = []
        for die in dict.fromkeys(left):  # each distinct die once, larger first
            rest = list(left)
            rest.remove(die)
            for p, q, hit in _steps(me, opp_at, die):
                me[p] -= 1
                me[q] += 1
                if hit:
                    opp_at[q] = 0
                child = (tuple(me), tuple(opp_at), () if used + 1 == needed else tuple(rest))
                if visit(me, opp_at, tuple(rest), used + 1) and (p, q, hit, child) not in mine:
                    mine.append((p, q, hit, child))
                if hit:
                    opp_at[q] = 1
                me[q] -= 1
                me[p] += 1
        ok = bool(mine)
        good[key] = ok
        if ok:
            index[key] = len(edges)
            edges.append([(p, q, hit, index[child]) for p, q, hit, child in mine])
        return ok

    visit(start_me, start_opp, start_dice, 0)
    # Children were numbered before their parents: renumber from the start, breadth first.
    root = len(edges) - 1
    order = [root]
    seen = {root: 0}
    for old in order:
        for _p, _q, _hit, child in edges[old]:
            if child not in seen:
                seen[child] = len(order)
                order.append(child)
    return TapGraph(
        tuple(tuple((p, q, hit, seen[child]) for p, q, hit, child in edges[old]) for old in order)
    )


def encode(graph: TapGraph) -> str:
    """The graph as the board's ``data-taps`` attribute (see the module's docstring).

    >>> encode(tap_graph(Position.from_points({1: 1}, {6: 1}), (2, 1)))
    '1/0>1;'
    """
    return ";".join(
        " ".join(f"{p}/{q}{'*' if hit else ''}>{n}" for p, q, hit, n in edges) for edges in graph.nodes
    )


def decode(text: str) -> TapGraph:
    """Read back what ``encode`` wrote."""
    nodes = []
    for part in text.split(";"):
        edges = []
        for edge in part.split():
            step, _, nxt = edge.partition(">")
            p, _, q = step.rstrip("*").partition("/")
            edges.append((int(p), int(q), step.endswith("*"), int(nxt)))
        nodes.append(tuple(edges))
    return TapGraph(tuple(nodes))


def _better(a: Chain, b: Chain) -> bool:
    """Whether chain ``a`` is preferred to ``b``: fewer steps, then fewer hits (else the first)."""
    return (len(a), sum(e[2] for e in a)) < (len(b), sum(e[2] for e in b))


def offered_targets(graph: TapGraph, node: int) -> dict[int, dict[int, Chain]]:
    """Where each checker may go from ``node``: {from: {to: the chain of steps a tap takes}}.

    >>> graph = tap_graph(Position.initial(), (4, 2))
    >>> targets = offered_targets(graph, 0)
    >>> sorted(targets[13])
    [7, 9, 11]
    >>> sorted(offered_targets(graph, walk(graph, "13/9").node)[13])
    [11]
    """
    found: dict[int, dict[int, Chain]] = {}
    for edge in graph.nodes[node]:
        start = edge[0]
        if start in found:
            continue
        targets: dict[int, Chain] = {}
        # Depth first, in the order of the edges: the first chain found wins a tie.
        stack: list[Chain] = [(e,) for e in reversed(graph.nodes[node]) if e[0] == start]
        while stack:
            chain = stack.pop()
            end = chain[-1][1]
            if end not in targets or _better(chain, targets[end]):
                targets[end] = chain
            if end != OFF:
                stack.extend(chain + (e,) for e in reversed(graph.nodes[chain[-1][3]]) if e[0] == end)
        found[start] = targets
    return found


_POINT = {"bar": BAR, "off": OFF}
_TOKEN = re.compile(r"^((?:bar|off|\d{1,2})\*?(?:/(?:bar|off|\d{1,2})\*?)+)(?:\((\d)\))?$")


def hops(text: str) -> list[tuple[int, int]] | None:
    """Move text as taps ``(from, to)``: each written hop is one tap; None when it cannot be read.

    >>> hops("bar/22 13/9*/7 6/4(2) 3/off")
    [(25, 22), (13, 9), (9, 7), (6, 4), (6, 4), (3, 0)]
    """
    out: list[tuple[int, int]] = []
    for token in text.lower().replace(",", " ").split():
        match = _TOKEN.match(token)
        if not match:
            return None
        names = [name.rstrip("*") for name in match.group(1).split("/")]
        points = [_POINT[name] if name in _POINT else int(name) for name in names]
        out.extend(list(pairwise(points)) * int(match.group(2) or 1))
    return out


class Walk(NamedTuple):
    """How far move text goes in a tap graph: the node, the taps' chains, whether all of it went."""

    node: int
    chains: tuple[Chain, ...]
    whole: bool


def walk(graph: TapGraph, text: str) -> Walk:
    """The node reached by the taps written in ``text``, as far as they go (0 when none do).

    >>> walk(tap_graph(Position.initial(), (4, 2)), "13/9 13/9").whole
    False
    """
    node = 0
    chains: list[Chain] = []
    taps = hops(text)
    for start, end in taps or []:
        chain = offered_targets(graph, node).get(start, {}).get(end)
        if chain is None:
            return Walk(node, tuple(chains), False)
        chains.append(chain)
        node = chain[-1][3]
    return Walk(node, tuple(chains), taps is not None)


def tap_text(chain: Chain) -> str:
    """What one tap writes in the move box: ``13/9``, ``13/9*/7`` (kept where it hits), ``6/off``."""
    def name(point: int) -> str:
        return "bar" if point == BAR else "off" if point == OFF else str(point)

    text = name(chain[0][0])
    for i, (_p, q, hit, _n) in enumerate(chain):
        if hit or i == len(chain) - 1:
            text += f"/{name(q)}{'*' if hit else ''}"
    return text


__all__ = ["TapGraph", "Walk", "decode", "encode", "hops", "offered_targets", "tap_graph", "tap_text", "walk"]
