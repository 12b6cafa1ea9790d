"""Legal-move enumerations per second over a fixed, realistic mix of positions and rolls.

One enumeration = one (position, roll) turned into its complete list of distinct plays.
The mix is generated from a seeded ``random.Random``: positions sampled from random games
(opening, contact, a checker on the bar, bear-off, race) and rolls with doubles about a
quarter of the time. When GNU Backgammon's Python module ``gnubg`` is importable (an optional
local oracle, never a requirement), its ``findbestmoves`` runs on the same mix in the same
run, and the ratio is printed; its play counts are compared too.

    .venv/bin/python benchmarks/engine.py [--size N] [--seconds S]
"""

from __future__ import annotations

import argparse
import pathlib
import random
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from chouette.engine import Position, apply_move, legal_moves

MIX = {"opening": 0.10, "contact": 0.40, "bar": 0.15, "bearoff": 0.15, "race": 0.20}


def _category(position: Position) -> str:
    if position == Position.initial():
        return "opening"
    if position.bar():
        return "bar"
    if not any(position.mover[7:26]):
        return "bearoff"
    return "contact" if position.is_contact() else "race"


def _roll(rng: random.Random) -> tuple[int, int]:
    if rng.random() < 0.25:
        die = rng.randint(1, 6)
        return (die, die)
    return tuple(rng.sample(range(1, 7), 2))  # type: ignore[return-value]


def build_mix(size: int, seed: int = 20261121) -> list[tuple[Position, tuple[int, int]]]:
    """A deterministic list of (position, roll) pairs in the proportions of MIX."""
    rng = random.Random(seed)
    buckets: dict[str, list[Position]] = {name: [] for name in MIX}
    buckets["opening"].append(Position.initial())
    while min(len(b) for name, b in buckets.items() if name != "opening") < size:
        position = Position.initial()
        for _ply in range(300):
            if position.mover[0] == 15 or position.opponent[0] == 15:
                break
            buckets[_category(position)].append(position)
            # Sorted by notation so the games do not depend on the engine's order of plays.
            plays = sorted(legal_moves(position, _roll(rng)), key=str)
            if plays:
                position = apply_move(position, rng.choice(plays))
            position = position.swap()
    mix = []
    for name, share in MIX.items():
        pool = buckets[name]
        mix += [(rng.choice(pool), _roll(rng)) for _ in range(round(size * share))]
    rng.shuffle(mix)
    return mix


def _rate(run, mix: list, seconds: float) -> tuple[float, float]:
    """Best enumerations per second over repeated passes for about ``seconds``: (CPU, wall).

    CPU time of this process is the figure to compare: the machine is shared, and other
    processes would otherwise count against whichever side ran while they did.
    """
    best_cpu = best_wall = 0.0
    deadline = time.perf_counter() + seconds
    while True:
        wall, cpu = time.perf_counter(), time.process_time()
        run(mix)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        best_cpu = max(best_cpu, len(mix) / max(cpu, 1e-9))
        best_wall = max(best_wall, len(mix) / max(wall, 1e-9))
        if time.perf_counter() > deadline:
            return best_cpu, best_wall


def _ours(mix: list) -> None:
    for position, roll in mix:
        legal_moves(position, roll)


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=4000)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    mix = build_mix(args.size)
    doubles = sum(1 for _p, (a, b) in mix if a == b) / len(mix)
    plays = sum(len(legal_moves(p, r)) for p, r in mix)
    print(f"mix: {len(mix)} position-rolls, {doubles:.0%} doubles, {plays / len(mix):.1f} plays on average")
    ours, ours_wall = _rate(_ours, mix, args.seconds)
    print(f"chouette.engine.legal_moves: {ours:,.0f} enumerations/s CPU ({ours_wall:,.0f}/s wall), best pass")
    try:
        import gnubg  # type: ignore[import-not-found]
    except ImportError:
        print("gnubg not importable: no comparison (pip install gnubg==1.1.0a16 in a scratch venv)")
        return
    context = gnubg.evalcontext(0, 0, 1, 0, 0.0)
    cube = gnubg.cubeinfo()
    boards = [((tuple(p.opponent[1:]), tuple(p.mover[1:])), r) for p, r in mix]

    def theirs(_mix: list) -> None:
        for board, roll in boards:
            gnubg.findbestmoves(board, cube, context, roll)

    rate, rate_wall = _rate(theirs, mix, args.seconds)
    agree = sum(len(gnubg.findbestmoves(b, cube, context, r)) == len(legal_moves(p, r)) for (b, r), (p, _r) in zip(boards, mix, strict=False))
    print(f"gnubg.findbestmoves: {rate:,.0f} enumerations/s CPU ({rate_wall:,.0f}/s wall); ratio ours/gnubg = {ours / rate:.2f}")
    print(f"play counts agree on {agree}/{len(mix)} position-rolls")


if __name__ == "__main__":
    main()
