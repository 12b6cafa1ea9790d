"""Settle-up speed: fewest transfers for 20 players (budget: under 100 ms) and for 200.

Run ``python benchmarks/ledger.py``; ``run()`` returns the same figures as a dict for other
benchmark scripts. Figures only, no assertions.
"""

from __future__ import annotations

import pathlib
import random
import statistics
import sys
import time
from collections.abc import Callable

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from chouette.ledger import partition_zero_sum, settle_up

RUNS = 7
INSTANCES = 5


def _books(amounts: list[int]) -> dict[str, int]:
    return {f"Player {index:03d}": cents for index, cents in enumerate(amounts)}


def _random_without_zero_sum_part(rng: random.Random, size: int) -> dict[str, int]:
    """Random cents whose only zero-sum subset is the whole set: exactly n - 1 transfers."""
    while True:
        amounts = [rng.randint(-500_000, 500_000) for _ in range(size - 1)]
        amounts.append(-sum(amounts))
        if all(amounts) and len(partition_zero_sum(amounts)) == 1:
            return _books(amounts)


def _hidden_groups(
    rng: random.Random, sizes: list[int], unit: int = 1, high: int = 90_000
) -> dict[str, int]:
    """Disjoint zero-sum groups (random amounts, multiples of unit), shuffled together."""
    amounts: list[int] = []
    for size in sizes:
        group = [unit * rng.choice([-1, 1]) * rng.randint(1, high) for _ in range(size - 1)]
        if sum(group) == 0:
            group[0] += unit
        amounts.extend(group + [-sum(group)])
    rng.shuffle(amounts)
    return _books(amounts)


def _small_stakes(rng: random.Random, size: int) -> dict[str, int]:
    """Whole points at a 5.00 stake: thousands of zero-sum subsets, few exact opposites."""
    amounts = [500 * rng.randint(1, 7) for _ in range(size - 6)]
    amounts += [-500 * rng.randint(8, 14) for _ in range(5)]
    amounts.append(-sum(amounts))
    return _books(amounts)


CASES: dict[str, Callable[[random.Random], dict[str, int]]] = {
    "20 random, no zero-sum part": lambda rng: _random_without_zero_sum_part(rng, 20),
    "20 in hidden groups 3+4+4+4+5": lambda rng: _hidden_groups(rng, [3, 4, 4, 4, 5]),
    "20 in hidden groups 3+3+3+3+4+4": lambda rng: _hidden_groups(rng, [3, 3, 3, 3, 4, 4]),
    "20 in hidden groups 6+7+7": lambda rng: _hidden_groups(rng, [6, 7, 7]),
    "20 small stakes (5.00 x 1..14 points)": lambda rng: _small_stakes(rng, 20),
    "200 random": lambda rng: _books(_random_200(rng)),
    "200 in hidden groups 2..6": lambda rng: _hidden_groups(rng, [2, 3, 4, 5, 6] * 10),
    "200 small stakes (1.00 x -30..30 points)": lambda rng: _books(_small_200(rng)),
}


def _random_200(rng: random.Random) -> list[int]:
    amounts = [rng.randint(-100_000, 100_000) for _ in range(199)]
    return amounts + [-sum(amounts)]


def _small_200(rng: random.Random) -> list[int]:
    amounts = [100 * rng.randint(-30, 30) for _ in range(199)]
    return amounts + [-sum(amounts)]


def _time(books: dict[str, int]) -> tuple[list[float], int]:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        transfers = settle_up(books)
        times.append((time.perf_counter() - start) * 1000)
    return times, len(transfers)


def run(seed: int = 2026) -> dict:
    """Time settle_up on every case; per case: best, median and worst ms, players and transfers."""
    rng = random.Random(seed)
    results = {}
    for name, make in CASES.items():
        times: list[float] = []
        medians: list[float] = []
        counts = []
        for _ in range(INSTANCES):
            books = make(rng)
            instance_times, count = _time(books)
            times.extend(instance_times)
            medians.append(statistics.median(instance_times))
            counts.append((sum(1 for cents in books.values() if cents), count))
        results[name] = {
            "best_ms": round(min(times), 2),
            "median_ms": round(statistics.median(medians), 2),
            "worst_ms": round(max(times), 2),
            "players_and_transfers": counts,
        }
    return results


def main() -> None:
    print(f"settle_up, {INSTANCES} instances x {RUNS} runs each (ms; budget: 20 players under 100)")
    print(f"{'case':42} {'best':>8} {'median':>8} {'worst':>8}  non-zero balances -> transfers")
    for name, figures in run().items():
        pairs = ", ".join(f"{n}->{t}" for n, t in figures["players_and_transfers"])
        print(
            f"{name:42} {figures['best_ms']:8.2f} {figures['median_ms']:8.2f}"
            f" {figures['worst_ms']:8.2f}  {pairs}"
        )


if __name__ == "__main__":
    main()
