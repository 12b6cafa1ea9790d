"""A table that plays online (the ``play`` setting, issue 26): the box and the (acting) captain
roll and move from their own devices, with the server's dice only; nobody else does; the
organizer who runs the table still does everything (``deciders.decider``, ``roll_event``).

Each device sees the board from its own side, its points named buttons; a forced play is one
tap (or plays by itself, the member's choice); a roll with no legal play is said.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from chouette.engine import legal_moves
from chouette.extensions import db
from chouette.models import Member
from tests.conftest import dispose, make_app
from tests.online_game import FORCED, FORCED_DICE, GAME, SEED
from tests.web.test_phone_decisions import Phones
from tests.web.test_play_pages import HTMX, post, sign_in

ONLINE = {"play": "online"}


@pytest.fixture
def seeded(tmp_path: Path) -> Iterator[Flask]:
    """The app with the server's dice drawn from ``SEED`` (tests only: a run replays)."""
    app = make_app(tmp_path, DICE_SEED=SEED)
    yield app
    dispose(app)


def online(app: Flask) -> Phones:
    """A: the box; B: the captain; C, D: the line; Olga runs the table."""
    return Phones(app, "ABCD", **ONLINE)


def organizer(phones: Phones):
    """Olga's signed-in client."""
    if "Olga" not in phones.clients:
        client = phones.app.test_client()
        with phones.app.app_context():
            sign_in(client, db.session.get(Member, phones.table.owner.id))
        phones.clients["Olga"] = client
    return phones.clients["Olga"]


def not_their_turn(phones: Phones, who: str, action: str, data: dict[str, str], words: str) -> None:
    """``who`` may not post this now: 403 with ``words`` (page and htmx), the log as it was."""
    before = phones.table.log()
    for htmx in (False, True):
        response = phones.post(who, action, data, htmx=htmx)
        assert response.status_code == 403, (who, action, response.status_code)
        assert words in response.get_data(as_text=True).replace("&#39;", "'")
    assert phones.table.log() == before


def opened(phones: Phones) -> str:
    """The box rolls the opening from their phone until a side wins it; the mover's name."""
    for _ in range(10):
        response = phones.post("A", "roll", {"how": "server"})
        assert response.status_code == 303, response.get_data(as_text=True)[:300]
        game = phones.table.state().game
        if game.position is not None:
            return "A" if game.on_roll == "box" else "B"
    raise AssertionError("ten tied opening rolls")


def test_the_setting_is_on_the_rules_card_and_changes_between_games(app):
    phones = Phones(app, "ABCD")
    html = organizer(phones).get(phones.table.url).get_data(as_text=True)
    assert "At the club: the organizer or the players enter the dice" in html
    assert 'name="rule-play"' in html  # the house-rules form offers it
    form = {f"rule-{key}": value for key, value in {
        "cube_mode": "multi", "stake_cents": "1.00", "automatic_doubles": "0",
        "all_but_one": "forced_drop", "all_but_one_min_players": "5", "partner_min_players": "8",
        "partner_share_percent": "50", "box_retention": "beat_captain",
        "join_position": "immediate", "consulting": "free", "play": "online"}.items()}
    response = post(organizer(phones), phones.table, "settings", form)
    assert response.status_code == 303
    assert phones.table.log()[-1] == {"type": "settings", "settings": {"play": "online"}}
    assert phones.table.state().settings.online
    html = organizer(phones).get(phones.table.url).get_data(as_text=True)
    assert "Online: the box and the captain roll (the app&#39;s dice) and move on their own devices." in html
    # During a game the rules refuse it, with their reason; nothing is written.
    phones.table.play({"type": "opening_roll", "box": 6, "team": 1})
    before = phones.table.log()
    form["rule-play"] = "club"
    response = post(organizer(phones), phones.table, "settings", form)
    assert response.status_code == 422 and "between games" in response.get_data(as_text=True)
    assert phones.table.log() == before


@pytest.mark.parametrize("who", ["C", "D"])
def test_only_the_box_or_the_captain_rolls_the_opening(seeded, who):
    phones = online(seeded)
    not_their_turn(phones, who, "roll", {"how": "server"},
                   "At a table played online the box or the captain rolls the opening roll")
    assert phones.post("B", "roll", {"how": "server"}).status_code == 303
    assert phones.table.log()[-1]["type"] == "opening_roll"


def test_the_side_on_roll_rolls_and_moves_from_its_phone_and_nobody_else(seeded):
    phones = online(seeded)
    mover = opened(phones)
    other = "B" if mover == "A" else "A"
    game = phones.table.state().game
    play = str(legal_moves(game.position, game.dice)[0])
    for who in (other, "C", "D"):
        not_their_turn(phones, who, "move", {"move": play}, f"it is {mover}'s turn.")
    phones.made(mover, "move", {"move": play}, {"type": "move", "move": play})
    # Now the other side is on roll: only its player rolls.
    for who in (mover, "C", "D"):
        not_their_turn(phones, who, "roll", {"how": "server"}, f"it is {other}'s turn.")
    assert phones.post(other, "roll", {"how": "server"}).status_code == 303
    assert phones.table.log()[-1]["type"] == "roll"


def test_typed_dice_are_refused_online_even_to_the_organizer(seeded):
    phones = online(seeded)
    before = phones.table.log()
    for client in (phones.phone("A"), organizer(phones)):
        for htmx in (False, True):
            response = post(client, phones.table, "roll", {"how": "dice", "die1": "6", "die2": "1"},
                            htmx=htmx)
            assert response.status_code == 422
            assert "This table plays online: the dice come from the app" in response.get_data(as_text=True)
    assert phones.table.log() == before
    # The page offers no typed dice there, only the Roll button.
    html = phones.live("A")
    assert 'name="die1"' not in html and ">Opening roll<" in html


def test_the_organizer_still_rolls_and_moves_online(seeded):
    phones = online(seeded)
    client = organizer(phones)
    for _ in range(10):
        assert post(client, phones.table, "roll", {"how": "server"}).status_code == 303
        if phones.table.state().game.position is not None:
            break
    game = phones.table.state().game
    play = str(legal_moves(game.position, game.dice)[0])
    assert post(client, phones.table, "move", {"move": play}).status_code == 303
    assert phones.table.log()[-1] == {"type": "move", "move": play}


def test_a_club_table_still_has_the_organizer_roll(seeded):
    phones = Phones(seeded, "ABCD")
    phones.refused("A", "roll", {"how": "server"})
    phones.refused("B", "roll", {"how": "server"})


def test_each_player_sees_the_board_from_their_side_with_named_point_buttons(seeded):
    phones = online(seeded)
    phones.table.play(*GAME)
    assert phones.post("B", "roll", {"how": "server"}).status_code == 303
    assert phones.table.state().game.dice == FORCED_DICE
    box, captain, member = phones.live("A"), phones.live("B"), phones.live("C")
    assert 'class="board bottom-box"' in box and 'class="board bottom-team"' in captain
    assert 'class="board bottom-team"' in member
    watched = organizer(phones).get(f"{phones.table.url}/live", headers=HTMX).get_data(as_text=True)
    assert 'class="board bottom-box"' in watched
    # The captain plays on their board: every point a button named by its number as they
    # count it (bar 25, their home board 1-6), the bar and the tray too; the others only look.
    assert captain.count('role="button" tabindex="0"') >= 2 * 26
    labels = re.findall(r'<g class="point[^"]*" data-point="(\d+)"[^>]*aria-label="Point (\d+)', captain)
    assert labels and all(point == number for point, number in labels)
    assert 'aria-label="Bar: 2 to enter"' in captain and 'aria-label="Bear off: 0 off"' in captain
    assert 'role="button"' not in box and 'role="button"' not in member
    assert 'role="img"' in box


def test_a_forced_play_is_one_tap(seeded):
    phones = online(seeded)
    phones.table.play(*GAME)
    assert phones.post("B", "roll", {"how": "server"}).status_code == 303
    html = phones.live("B")
    assert f"Play the forced move: {FORCED}" in html and f'name="move" value="{FORCED}"' in html
    assert "Play the forced move" not in phones.live("A")  # not the box's to play
    phones.made("B", "move", {"move": FORCED}, {"type": "move", "move": FORCED})


def test_a_forced_play_plays_by_itself_when_the_member_asks_for_it(seeded):
    phones = online(seeded)
    response = phones.phone("B").post("/account", data={"locale": "", "auto_forced_moves": "y"})
    assert response.status_code == 303
    account = phones.phone("B").get("/account").get_data(as_text=True)
    assert re.search(r'<input checked id="auto_forced_moves"', account), "the box stays ticked"
    phones.table.play(*GAME)
    assert phones.post("B", "roll", {"how": "server"}).status_code == 303
    assert phones.table.log()[-2:] == [{"type": "roll", "dice": list(FORCED_DICE)},
                                       {"type": "move", "move": FORCED}]
    assert phones.table.state().game.on_roll == "box"


def test_a_forced_play_waits_for_a_tap_by_default(seeded):
    phones = online(seeded)
    phones.table.play(*GAME)
    assert phones.post("B", "roll", {"how": "server"}).status_code == 303
    assert phones.table.log()[-1] == {"type": "roll", "dice": list(FORCED_DICE)}


def test_a_roll_with_no_legal_play_passes_and_every_device_says_why(seeded):
    phones = online(seeded)
    # The game up to its roll with no legal play: the next event of the game is a roll again.
    at = next(i for i, event in enumerate(GAME)
              if event["type"] == "roll" and GAME[i + 1]["type"] == "roll")
    phones.table.play(*GAME[:at])
    game = phones.table.state().game
    blocked = GAME[at]["dice"]
    assert game.on_roll == "member" and not legal_moves(game.position, tuple(blocked))
    phones.table.play(GAME[at])
    assert phones.table.state().game.on_roll == "box"  # the team's turn passed by itself
    word = f"B rolled {blocked[0]}-{blocked[1]}: no legal play, the turn passes."
    for name in "ABCD":
        assert word in phones.live(name)
    assert word in organizer(phones).get(f"{phones.table.url}/live", headers=HTMX).get_data(as_text=True)
    # The box rolls next: the word is gone.
    assert phones.post("A", "roll", {"how": "server"}).status_code == 303
    assert "no legal play" not in phones.live("C")


def test_a_new_table_is_made_online_from_its_form(app, client, login_as):
    from chouette.services import tables
    from tests.factories import gen_night
    from tests.web.test_table_pages import _form, _tables

    login_as("organizer")
    with app.app_context():
        night_id = gen_night(name="Friday").id
    html = client.get(f"/nights/{night_id}/tables/new").get_data(as_text=True)
    assert "Where the game is played" in html and '<option value="online">Online</option>' in html
    response = client.post(f"/nights/{night_id}/tables/new",
                           data=_form({**tables.TABLE_DEFAULTS, "play": "online"}))
    assert response.status_code == 303
    assert _tables(app)[-1].settings["play"] == "online"
    bad = client.post(f"/nights/{night_id}/tables/new",
                      data=_form({**tables.TABLE_DEFAULTS, "play": "moon"}, name="Other"))
    assert bad.status_code == 422 and len(_tables(app)) == 1
