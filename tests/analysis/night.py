"""A night whose board game GNU Backgammon has judged, for the pages' tests."""

from __future__ import annotations

import datetime as dt

from chouette.analysis import queue
from chouette.services import table_states, tables
from chouette.table import Settings
from tests.analysis.games import Log, short_game
from tests.factories import gen_member, gen_night, gen_table

PLAYERS = ("Ann", "Bob", "Cy")


def analysed_night(game: Log | None = None) -> int:
    """Members Ann (the box), Bob and Cy (seated by id), organizer Olga; one night, one short board game,
    judged by the worker's code with the real gnubg (``game``: another game of theirs, Ann the
    box). The night's id."""
    gen_member("organizer", username="olga", name="Olga")
    ids = {name: gen_member("player", username=name.lower(), name=name).id for name in PLAYERS}
    night = gen_night(name="Friday", date=dt.date(2026, 11, 20))
    log = (game or short_game(1, PLAYERS)).log
    # Each seat is its member's (by id), as the table's page writes a member's join.
    log["events"] = [{**e, "member_id": ids[e["player"]]} if e["type"] == "join" else e
                     for e in log["events"]]
    settings = Settings.from_dict(log["table"]).to_dict()
    table = gen_table(night, name="Table 1", settings=settings)
    tables.append_events(table.id, 0, log["events"], None,
                         snapshots=table_states.log_snapshots(settings, log["events"]))
    claimed = queue.claim("test")
    assert claimed is not None
    queue.analyse_table(*claimed, "test")
    return night.id
