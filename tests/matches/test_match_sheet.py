"""A match played on a physical board, recorded game by game on the sheet (log format 5):
one ``result`` event per game with its winner, kind and cube value; the rules, and the
table page's compact form that writes it."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from chouette.extensions import db
from chouette.models import LedgerEntry, TableEvent
from chouette.records.matches import match_record
from chouette.table import Settings, TableError, apply_event, fold
from chouette.table.match_rules import match_of
from tests.matches.helpers import ANN, BOB, match_table, opening, run
from tests.matches.test_match_pages import MatchNight


def sheet(winner: str, kind: str = "single", cube: int | None = None) -> dict[str, object]:
    """A game recorded on the sheet: ``winner`` "box" (Ann) or "team" (Bob)."""
    event: dict[str, object] = {"type": "result", "winner": winner, "kind": kind}
    if cube is not None:
        event["cube"] = cube
    return event


# --------------------------------------------------------------------------- the rules


def test_a_game_on_the_sheet_scores_its_cube_times_its_kind_capped_at_what_is_needed():
    state = run(match_table(5), sheet("team", "gammon", 2))
    assert match_of(state).scores == (0, 4) and state.games[-1].mode == "scoresheet"
    assert state.games[-1].cubes[0].value == 2 and match_of(state).crawford_game
    state = run(state, sheet("box"))  # the cube left out is 1
    assert match_of(state).scores == (1, 4) and match_of(state).post_crawford
    state = run(state, sheet("box", "single"), sheet("box", "backgammon", 4))
    assert match_of(state).scores == (5, 4) and match_of(state).is_over
    assert state.games[-1].pairs == ((BOB, -3),)  # 12 points won, 3 needed


@pytest.mark.parametrize(("cube", "reason"), [
    (3, "the cube is 1, 2, 4, 8... up to 64, not 3"),
    (0, "the cube is 1, 2, 4, 8... up to 64, not 0"),
    (128, "the cube is 1, 2, 4, 8... up to 64, not 128"),
])
def test_a_cube_that_is_no_cube_is_refused(cube, reason):
    with pytest.raises(TableError, match="the cube is") as refused:
        apply_event(match_table(), sheet("box", cube=cube))
    assert str(refused.value) == reason


def test_the_crawford_game_on_the_sheet_keeps_its_cube_at_one():
    state = run(match_table(3), sheet("box", cube=2))
    assert match_of(state).crawford_game
    with pytest.raises(TableError, match="nobody may double in the Crawford game: its cube stays at 1"):
        apply_event(state, sheet("team", cube=2))
    assert match_of(run(state, sheet("team", cube=1))).scores == (2, 1)


def test_a_game_begun_on_the_board_is_not_declared_on_the_sheet():
    state = opening(match_table())
    with pytest.raises(TableError, match="this game is played on the board"):
        apply_event(state, sheet("box"))


def test_a_cube_value_on_a_chouette_result_is_refused():
    chouette = [{"type": "join", "player": "A"}, {"type": "join", "player": "B"},
                {"type": "order", "players": ["A", "B"]}]
    state = fold({}, chouette)
    with pytest.raises(TableError, match="a result carries a cube value only in a match"):
        apply_event(state, sheet("box", cube=2))


def test_nothing_is_recorded_once_the_match_is_won_and_undo_takes_a_whole_game_back():
    state = run(match_table(1), sheet("team", cube=1))
    with pytest.raises(TableError, match="the match is over: Bob won it 1-0"):
        apply_event(state, sheet("box"))
    assert match_of(apply_event(state, {"type": "undo"})).scores == (0, 0)


def test_a_match_with_a_game_on_the_sheet_has_no_record_for_gnu_backgammon():
    events = [{"type": "join", "player": ANN}, {"type": "join", "player": BOB},
              {"type": "order", "players": [ANN, BOB]}, sheet("box", cube=2)]
    assert match_record(Settings.for_match(3).to_dict(), events) is None


# --------------------------------------------------------------------------- the page


@pytest.fixture
def night(app) -> MatchNight:
    return MatchNight(app)


def record(night: MatchNight, winner: str, kind: str, cube: str):
    return night.post("olga", "result", {"winner": winner, "kind": kind, "cube": cube})


def test_a_three_game_match_is_recorded_game_by_game_through_the_page(app, night):
    night.open(match_stake="point", stake_cents="1")
    html = night.client("olga").get(night.url).get_data(as_text=True)
    assert "A game played on a physical board" in html and "Record the game" in html
    # Game 1: Ann wins a single with the cube at 2 (2-0); game 2 is the Crawford game.
    assert record(night, "Ann", "single", "2").status_code == 303
    assert match_of(night.state()).scores == (2, 0)
    # In the Crawford game the form offers only the cube at 1; a cube at 2 is refused.
    html = night.client("olga").get(night.url).get_data(as_text=True)
    form = html[html.index('class="match-sheet"'):]
    form = form[:form.index("</form>")]
    assert 'name="cube"' in form and '<option value="2"' not in form
    before = night.seq()
    response = record(night, "Bob", "single", "2")
    assert response.status_code == 422
    assert "nobody may double in the Crawford game: its cube stays at 1" in response.get_data(as_text=True)
    assert night.seq() == before
    # Game 2: Bob wins a gammon at 1 (2-2). Game 3: Bob wins a single at 1 and the match 3-2.
    assert record(night, "Bob", "gammon", "1").status_code == 303
    assert record(night, "Bob", "single", "1").status_code == 303
    match = match_of(night.state())
    assert match.scores == (2, 3) and match.is_over and match.winner == 1
    with app.app_context():
        totals = dict(db.session.execute(select(LedgerEntry.player, func.sum(LedgerEntry.cents))
                                         .group_by(LedgerEntry.player)).all())
        kinds = [e.type for e in db.session.scalars(select(TableEvent).order_by(TableEvent.seq))]
    assert totals == {"Ann": -100, "Bob": 100}  # +2, -2, -1 points at €1.00 a point
    assert kinds.count("result") == 3 and "double" not in kinds  # one event a game
    html = night.client("ann").get(night.url).get_data(as_text=True)
    assert "Bob wins the match 3-2." in html
    assert 'class="match-sheet"' not in html  # nothing more to record
    assert f"/records/tables/{night.table_id}.mat" not in html  # no plays to download
    games = html[html.index('class="list match-games"'):]
    assert "single · cube 2" in games and "gammon" in games
    # The finished match refuses another game, and nothing is written.
    before = night.seq()
    response = record(night, "Ann", "single", "1")
    assert response.status_code == 422 and "the match is over: Bob won it 3-2" in response.get_data(as_text=True)
    assert night.seq() == before


@pytest.mark.parametrize(("form", "reason"), [
    ({"winner": "Cy", "kind": "single", "cube": "1"}, "the winner is Ann or Bob"),
    ({"winner": "Ann", "kind": "single", "cube": "two"}, "the cube is 1, 2, 4, 8... up to 64, not &#39;two&#39;"),
    ({"winner": "Ann", "kind": "single", "cube": "6"}, "the cube is 1, 2, 4, 8... up to 64, not 6"),
    ({"winner": "Ann", "kind": "double", "cube": "1"}, "the result is &#34;single&#34;, &#34;gammon&#34; or &#34;backgammon&#34;"),
])
def test_a_game_that_cannot_be_is_refused_with_the_reason_and_nothing_is_written(night, form, reason):
    night.open()
    before = night.seq()
    response = night.post("olga", "result", form)
    assert response.status_code == 422
    assert reason in response.get_data(as_text=True)
    assert night.seq() == before


def test_only_who_runs_the_table_records_a_game(night):
    night.open()
    before = night.seq()
    assert record(night, "Ann", "single", "1").status_code == 303
    assert night.post("ann", "result", {"winner": "Ann", "kind": "gammon", "cube": "1"}).status_code == 403
    assert night.seq() == before + 1
    html = night.client("bob").get(night.url).get_data(as_text=True)
    assert 'class="match-sheet"' not in html


def test_the_form_is_in_italian_for_an_italian_reader(app, night):
    night.open()
    client = night.client("olga")
    html = client.get(night.url, headers={"Accept-Language": "it"}).get_data(as_text=True)
    assert "Una partita giocata su una tavola vera" in html and "Registra la partita" in html
    response = client.post(f"{night.url}/result", headers={"Accept-Language": "it"},
                           data={"seq": str(night.seq()), "winner": "Cy", "kind": "single", "cube": "1"})
    assert response.status_code == 422 and "il vincitore è Ann o Bob" in response.get_data(as_text=True)
