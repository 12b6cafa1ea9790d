"""A renamed member keeps their analysis: the figures and the decisions follow them by id,
nothing stays behind or is split under the former name (real gnubg on SQLite; the rows by
hand on either database)."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from chouette.analysis import queue
from chouette.analysis.decisions import Decision
from chouette.analysis.judge import Judged
from chouette.extensions import db
from chouette.models import GameAnalysis, Member, PlayerAnalysis
from chouette.services import analysis, members
from tests.analysis.night import analysed_night
from tests.factories import gen_member, gen_table


def _figures(name, member_id):
    (night,) = analysis.player_nights(name, member_id)
    f = night.figures
    return (f.moves, round(f.checker_error, 6), f.cube_decisions, round(f.cube_error, 6), f.games)


@pytest.mark.gnubg
@pytest.mark.sqlite_only
def test_a_renamed_member_keeps_their_analysis_under_the_new_name(app, client, auth):
    with app.app_context():
        night_id = analysed_night()
        bob = db.session.scalar(select(Member).where(Member.name == "Bob"))
        before = _figures("Bob", bob.id)
        decisions_before = sum(d["player"] == "Bob" for g in db.session.scalars(select(GameAnalysis))
                               for d in g.decisions)
        assert before[0] > 0 and decisions_before > 0
        admin = gen_member("admin", username="root", name="Root")
        members.update_member(bob.id, name="Robert", role="player", locale=None, active=True, actor=admin)
        # The member's rows and decisions carry the new name; none is left under the old one.
        assert set(db.session.scalars(select(PlayerAnalysis.name).where(
            PlayerAnalysis.member_id == bob.id))) == {"Robert"}
        assert db.session.scalar(select(PlayerAnalysis.id).where(PlayerAnalysis.name == "Bob")) is None
        players = [d["player"] for g in db.session.scalars(select(GameAnalysis)) for d in g.decisions]
        assert "Bob" not in players and players.count("Robert") == decisions_before
        assert _figures("Robert", bob.id) == before
        names = [f.name for f in analysis.players_of([night_id])]
        assert sorted(names) == ["Ann", "Cy", "Robert"]  # one row for Robert, not two
        # The worker judging the table again (the log now reads Bob as Robert) stores one set.
        queue.request(db.session.scalar(select(GameAnalysis.table_id)), 10**6)
        db.session.commit()
        queue.analyse_table(*queue.claim("w"), "w")
        assert _figures("Robert", bob.id) == before
        assert db.session.scalar(select(PlayerAnalysis.id).where(PlayerAnalysis.name == "Bob")) is None
    auth.login("bob")
    # The member's page is at the new name; the former one leads there.
    old = client.get("/analysis/players/Bob")
    assert old.status_code == 302 and old.headers["Location"].endswith("/analysis/players/Robert")
    page = client.get("/analysis/players/Robert").get_data(as_text=True)
    assert 'id="analysis-trend"' in page
    night = client.get(f"/analysis/nights/{night_id}").get_data(as_text=True)
    assert ">Robert</a>" in night and "Bob" not in night.split('id="analysis-night-page"')[1]
    assert night.count('class="card analysis-position"') >= 1  # Robert's worst, drawn


@pytest.mark.gnubg
@pytest.mark.sqlite_only
def test_a_worker_that_judged_under_the_old_name_stores_the_new_one(app):
    with app.app_context():
        analysed_night()
        ids = dict(db.session.execute(select(Member.name, Member.id)).all())
        bob = db.session.get(Member, ids["Bob"])
        game = db.session.scalar(select(GameAnalysis))
        stored = list(game.decisions)
        bob.name = "Robert"  # renamed while a worker judged the game under "Bob"
        db.session.commit()
        fields = set(Decision.__dataclass_fields__)
        verdict = [Judged(Decision(**{k: (tuple(v) if k == "dice" and v else
                                          tuple(map(tuple, v)) if k == "steps" else v)
                                      for k, v in d.items() if k in fields}),
                          d["best"], d["error"], d["counted"], tuple(d["equities"]))
                   for d in stored]
        queue._store(game.table_id, game.night_id, game.number, "other", verdict,
                     {name: ids[name] for name in ("Ann", "Bob", "Cy")})
        names = set(db.session.scalars(select(PlayerAnalysis.name)))
        assert names == {"Ann", "Robert", "Cy"}
        players = {d["player"] for d in db.session.scalar(select(GameAnalysis)).decisions}
        assert "Bob" not in players and "Robert" in players


def test_a_rename_re_attributes_stored_rows_on_either_database(app):
    """The rows as the worker stores them, written by hand (no gnubg): SQLite and PostgreSQL."""
    with app.app_context():
        bob = gen_member("player", username="bob", name="Bob")
        table = gen_table()
        game = GameAnalysis(table_id=table.id, night_id=table.night_id, number=1, fingerprint="x",
                            decisions=[{"player": "Bob", "error": 0.1}, {"player": "Ann", "error": 0.2}])
        game.players = [PlayerAnalysis(night_id=table.night_id, name="Bob", member_id=bob.id, moves=3,
                                       checker_error=0.1),
                        PlayerAnalysis(night_id=table.night_id, name="Ann", moves=2, checker_error=0.2)]
        db.session.add(game)
        db.session.commit()
        admin = gen_member("admin", username="root", name="Root")
        members.update_member(bob.id, name="Robert", role="player", locale=None, active=True, actor=admin)
        db.session.expire_all()
        assert sorted(db.session.scalars(select(PlayerAnalysis.name))) == ["Ann", "Robert"]
        stored = db.session.scalar(select(GameAnalysis))
        assert [d["player"] for d in stored.decisions] == ["Robert", "Ann"]
        (night,) = analysis.player_nights("Robert", bob.id)
        assert night.figures.moves == 3
