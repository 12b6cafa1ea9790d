"""Speed of the chouette rules: a full night's log, one more command, and settle-up.

Prints figures; asserts nothing. Run: .venv/bin/python benchmarks/table.py

- fold: a night of 60 scoresheet games, multi-cube, 8 players, folded from the start;
- command: one more event applied to that night, the way the server does it: rebuild the
  state from the snapshot of the last finished game, fold the events since, apply the event;
- cold command: ``commands.play`` on a process that never saw the table (a worker after a
  restart), the night in a temporary SQLite database: read the log and the stored snapshot
  of the last finished game, fold the events since, apply, write; and the same with no
  stored snapshot (the whole log folded, as before snapshots were stored);
- settle-up: fewest transfers for 20 players (exact) and for 200.
"""

from __future__ import annotations

import json
import pathlib
import random
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from chouette import caches
from chouette.ledger import settle_up
from chouette.table import apply_event, fold, resume
from chouette.table.actions import legal_actions
from chouette.table.simulate import random_night

SETTINGS = {"cube_mode": "multi", "stake_cents": 100, "partner_min_players": 0}


def _timed(func, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return times


def _ms(values: list[float]) -> str:
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(len(values) * 0.95))]
    return (f"median {statistics.median(values) * 1000:.3f} ms, "
            f"p95 {p95 * 1000:.3f} ms, best {values[0] * 1000:.3f} ms")


def night() -> tuple[object, list[dict]]:
    rng = random.Random(20261121)
    return random_night(SETTINGS, list("ABCDEFGH"), 60, rng.choice, lambda: rng.randint(1, 6))


def run() -> dict[str, object]:
    state, events = night()
    fold_times = _timed(lambda: fold(SETTINGS, events), 10)
    last = max(state.snapshots)
    snapshot = json.dumps(state.snapshots[last].snapshot())
    tail = state.effective[last:]
    command = next(a for a in legal_actions(state) if a["type"] == "double")

    def server_command() -> None:
        resumed = resume(json.loads(snapshot), tail)
        apply_event(resumed, command)

    command_times = _timed(server_command, 300)
    in_memory = _timed(lambda: apply_event(state, command), 300)
    rng = random.Random(7)
    settle = {}
    for players in (20, 200):
        cases = []
        for _ in range(5):
            values = [rng.randint(-5000, 5000) for _ in range(players - 1)]
            values.append(-sum(values))
            cases.append({f"p{i:03d}": v for i, v in enumerate(values)})
        settle[players] = [t for case in cases for t in _timed(lambda c=case: settle_up(c), 3)]
    return {
        "events": len(events),
        "games": len(state.games),
        "fold": fold_times,
        "command": command_times,
        "in_memory": in_memory,
        "settle": settle,
    }


def cold_commands(tables: int = 40) -> dict[str, list[float]]:
    """``commands.play`` on a cold process, each time at another copy of the night: with the
    stored snapshots, then without any."""
    import tempfile

    from sqlalchemy import delete

    from app import create_app
    from chouette.extensions import db
    from chouette.models import Member, TableSnapshot
    from chouette.services import commands, table_states
    from chouette.services import tables as tables_service
    from chouette.table import new_table
    from tests.factories import TEST_HASH, gen_member, gen_night, gen_table

    settings = {**tables_service.TABLE_DEFAULTS, **SETTINGS}
    state, events = night()
    rows = table_states.ledger_changes(new_table(settings), fold(settings, events))
    snapshots = table_states.log_snapshots(settings, events)
    command = next(a for a in legal_actions(state) if a["type"] == "double")
    figures: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite",
                          "PASSWORD_HASH_METHOD": TEST_HASH, "SECRET_KEY": "bench"})
        with app.app_context():
            db.create_all()
            organizer_id = gen_member("organizer").id
            night_ = gen_night()
            groups = {label: [gen_table(night_, name=f"{label} {n}", settings=settings).id
                              for n in range(tables)]
                      for label in ("snapshot", "no snapshot")}
            for label, stored in (("snapshot", True), ("no snapshot", False)):
                table_ids = groups[label]
                for table_id in table_ids:
                    tables_service.append_events(table_id, 0, events, None, rows, snapshots)
                if not stored:
                    db.session.execute(delete(TableSnapshot).where(TableSnapshot.table_id.in_(table_ids)))
                    db.session.commit()
                times = []
                for table_id in table_ids:
                    caches.clear_all(app)
                    db.session.remove()
                    organizer = db.session.get(Member, organizer_id)
                    db.session.commit()
                    start = time.perf_counter()
                    commands.play(table_id, len(events), command, organizer)
                    times.append(time.perf_counter() - start)
                figures[label] = times
            db.session.remove()
            db.engine.dispose()
    return figures


def main() -> None:
    figures = run()
    print(f"night: {figures['games']} games, {figures['events']} events (multi-cube, 8 players)")
    print(f"fold the whole night from the start: {_ms(figures['fold'])}")
    print(f"one command on the full night (snapshot + events since + apply): "
          f"{_ms(figures['command'])}  (goal: under 5 ms)")
    print(f"one command on the state in memory: {_ms(figures['in_memory'])}")
    cold = cold_commands()
    print(f"one command on a cold process (SQLite, commands.play), from the stored snapshot: "
          f"{_ms(cold['snapshot'])}")
    print(f"one command on a cold process, no stored snapshot (the whole log folded): "
          f"{_ms(cold['no snapshot'])}")
    for players, times in figures["settle"].items():
        goal = "  (goal: exact, under 100 ms)" if players == 20 else ""
        print(f"settle-up, {players} players: {_ms(times)}{goal}")


if __name__ == "__main__":
    main()
