"""Players act from their phones: every decision the rules give a player is theirs to post, and
nobody else's (docs/rules.md 1.7, 2.4 to 2.8; ``deciders.decider``).

For each decision: the player whose decision it is may post it (303, the event written), any
other signed-in player at the table may not (403, nothing written), signed out goes to sign-in.
The decision waiting for a player stands at the top of their table page, and their home page says
where they sit and that a decision waits for them.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask

from chouette.services import deciders
from chouette.table import fold
from tests.factories import PASSWORD, gen_member
from tests.web.test_play_pages import HTMX, Table, post, sign_in

BEAVERS = {"beavers": True, "raccoons": True}
EXTRAS = {"extras": True}


class Phones:
    """A table run by Olga where A is the box, B the captain, then C, D, ... each a member who
    signs in from their own phone (one test client each)."""

    def __init__(self, app: Flask, names: str = "ABCD", **settings: Any) -> None:
        self.app = app
        self.table = Table(app, settings)
        with app.app_context():
            self.members = {n: gen_member("player", name=n) for n in names}
        self.table.seat(names)
        self.clients: dict[str, Any] = {}

    def phone(self, name: str):
        """The test client of ``name``'s phone, signed in."""
        if name not in self.clients:
            client = self.app.test_client()
            sign_in(client, self.members[name])
            self.clients[name] = client
        return self.clients[name]

    def post(self, name: str, action: str, data: dict[str, Any], *, htmx: bool = False):
        return post(self.phone(name), self.table, action, data, htmx=htmx)

    def live(self, name: str) -> str:
        return self.phone(name).get(f"{self.table.url}/live", headers=HTMX).get_data(as_text=True)

    def doubles_shown(self, name: str, html: str | None = None) -> set[str]:
        """The members whose Double button ``name``'s page shows: the buttons of its drawing,
        less those a drawing shared by the phones keeps for another decider (hidden, and shown
        on the decider's page alone: static/js/mine.js)."""
        mine = str(self.members[name].id)
        html = self.live(name) if html is None else html
        html = re.sub(r'<span class="mine-only" data-decider-id="(\d*)" hidden>.*?</span>',
                      lambda found: found.group(0) if found.group(1) == mine else "", html, flags=re.S)
        return set(re.findall(r'name="by" value="([^"]+)"', html))

    def refused(self, name: str, action: str, data: dict[str, Any]) -> None:
        """``name`` may not post this: 403 (page and htmx), and the log is as it was."""
        before = self.table.log()
        for htmx in (False, True):
            response = self.post(name, action, data, htmx=htmx)
            assert response.status_code == 403, (name, action, data, response.status_code)
            assert "not your decision" in response.get_data(as_text=True)
        assert self.table.log() == before

    def made(self, name: str, action: str, data: dict[str, Any], event: dict[str, Any]) -> None:
        """``name`` posts it: 303 back to the table, and ``event`` is the log's last."""
        response = self.post(name, action, data)
        assert response.status_code == 303, (name, response.status_code, response.get_data(as_text=True)[:300])
        assert self.table.log()[-1] == event


def decision_block(html: str) -> str:
    """The decision waiting for the viewer, at the top of the live table ('' if none)."""
    found = re.search(r'<div id="my-decision-\d+"[\s\S]*?</ul>\s*</div>', html)
    return found.group(0) if found else ""


def signed_out_goes_to_sign_in(app: Flask, table: Table, action: str, data: dict[str, Any]) -> None:
    before = table.log()
    client = app.test_client()
    response = post(client, table, action, data)
    assert response.status_code == 302 and "/auth/login" in response.headers["Location"]
    response = post(client, table, action, data, htmx=True)
    assert response.status_code == 401 and "/auth/login" in response.headers["HX-Redirect"]
    assert table.log() == before


# --------------------------------------------------------------------------- the box answers


def test_the_box_answers_a_members_double_from_their_phone(app):
    phones = Phones(app)
    phones.table.play({"type": "double", "by": "C"})
    block = decision_block(phones.live("A"))
    assert "C&#39;s cube" in block and "C doubles you to 2." in block
    assert re.findall(r'name="answer" value="(\w+)"', block) == ["take", "drop"]
    assert 'name="cube" value="C"' in block
    assert f"""hx-vals='{{"seq": "{phones.table.seq()}"}}'""" in phones.live("A")  # what htmx sends
    phones.made("A", "answer", {"cube": "C", "answer": "take"}, {"type": "take", "cube": "C"})
    assert decision_block(phones.live("A")) == ""


@pytest.mark.parametrize("who", ["B", "C", "D"])
def test_nobody_but_the_box_answers_a_members_double(app, who):
    phones = Phones(app)
    phones.table.play({"type": "double", "by": "C"})
    phones.refused(who, "answer", {"cube": "C", "answer": "drop"})
    assert decision_block(phones.live(who)) == ""
    signed_out_goes_to_sign_in(app, phones.table, "answer", {"cube": "C", "answer": "drop"})


@pytest.mark.parametrize(("events", "answerer", "offer"), [
    # The member beavers the box's double: the box, the original doubler, answers it.
    ([{"type": "double", "by": "box", "cubes": ["C"]}, {"type": "beaver", "cube": "C"}], "A",
     "C beavers: the cube goes to 4."),
    # The box beavers a member's double: that member, the original doubler, answers it.
    ([{"type": "double", "by": "C"}, {"type": "beaver", "cube": "C"}], "C",
     "A beavers: the cube goes to 4."),
    # The box raccoons the member's beaver: the beaverer answers the raccoon.
    ([{"type": "double", "by": "box", "cubes": ["C"]}, {"type": "beaver", "cube": "C"},
      {"type": "raccoon", "cube": "C"}], "C", "A raccoons: the cube goes to 8."),
    # The member raccoons the box's beaver: the box answers.
    ([{"type": "double", "by": "C"}, {"type": "beaver", "cube": "C"},
      {"type": "raccoon", "cube": "C"}], "A", "C raccoons: the cube goes to 8."),
])
def test_beavers_and_raccoons_are_answered_by_the_side_they_were_made_to(app, events, answerer, offer):
    phones = Phones(app, **BEAVERS)
    phones.table.play(*events)
    block = decision_block(phones.live(answerer))
    assert offer in block and 'value="take"' in block
    for other in sorted(set("ABCD") - {answerer}):
        assert decision_block(phones.live(other)) == ""
        phones.refused(other, "answer", {"cube": "C", "answer": "take"})
    signed_out_goes_to_sign_in(app, phones.table, "answer", {"cube": "C", "answer": "take"})
    phones.made(answerer, "answer", {"cube": "C", "answer": "take"}, {"type": "take", "cube": "C"})


def test_the_box_answers_a_beaver_at_once_while_their_double_waits_for_the_others(app):
    phones = Phones(app, **BEAVERS)
    phones.table.play({"type": "double", "by": "box", "cubes": ["C", "D"]}, {"type": "beaver", "cube": "C"})
    # C's beaver is the box's to answer now (docs/rules.md 2.5); D still answers the double themselves.
    assert "C beavers: the cube goes to 4." in decision_block(phones.live("A"))
    assert "A doubles you to 2." in decision_block(phones.live("D"))
    assert decision_block(phones.live("C")) == ""
    phones.refused("C", "answer", {"cube": "C", "answer": "take"})
    phones.refused("D", "answer", {"cube": "C", "answer": "take"})
    phones.refused("A", "answer", {"cube": "D", "answer": "take"})
    phones.made("A", "answer", {"cube": "C", "answer": "take"}, {"type": "take", "cube": "C"})
    phones.made("D", "answer", {"cube": "D", "answer": "drop"}, {"type": "drop", "cube": "D"})


def test_a_member_answers_the_boxs_double_on_their_own_cube_only(app):
    phones = Phones(app)
    phones.table.play({"type": "double", "by": "box", "cubes": ["C", "D"]})
    assert "A doubles you to 2." in decision_block(phones.live("C"))
    phones.refused("C", "answer", {"cube": "D", "answer": "drop"})
    phones.refused("A", "answer", {"cube": "C", "answer": "drop"})
    phones.made("C", "answer", {"cube": "C", "answer": "drop"}, {"type": "drop", "cube": "C"})


# --------------------------------------------------------------------------- doubles


def test_a_member_doubles_the_box_from_their_phone(app):
    phones = Phones(app)
    html = phones.live("C")
    # C's own cube's Double button, nobody else's; nothing waits for C, so no decision block.
    assert re.search(r'data-member="C"[\s\S]*?name="by" value="C"[\s\S]*?</li>', html)
    assert phones.doubles_shown("C", html) == {"C"}
    assert decision_block(html) == ""
    phones.refused("D", "double", {"by": "C"})
    phones.refused("A", "double", {"by": "C"})
    signed_out_goes_to_sign_in(app, phones.table, "double", {"by": "C"})
    phones.made("C", "double", {"by": "C"}, {"type": "double", "by": "C"})


def test_the_box_doubles_from_their_phone_and_nobody_else_doubles_for_them(app):
    phones = Phones(app)
    html = phones.live("A")
    assert 'name="cubes" value="C"' in html and 'name="by" value="C"' not in html
    phones.refused("C", "double", {"by": "box", "cubes": ["C"]})
    phones.made("A", "double", {"by": "box", "cubes": ["C", "D"]},
                {"type": "double", "by": "box", "cubes": ["C", "D"]})


def test_a_member_may_not_double_when_the_rules_do_not_allow_it(app):
    phones = Phones(app)
    phones.table.play({"type": "double", "by": "D"}, {"type": "take", "cube": "D"})
    # The box owns D's cube now: D's phone has no Double button, and a forged one is refused
    # by the rules, with nothing written.
    assert not re.search(r'name="by" value="D"', phones.live("D"))
    before = phones.table.log()
    response = phones.post("D", "double", {"by": "D"}, htmx=True)
    assert response.status_code == 422 and "the box owns that cube" in response.get_data(as_text=True)
    assert phones.table.log() == before


# --------------------------------------------------------------------------- single cube


def test_single_cube_the_captain_doubles_for_the_team_and_the_box_answers_the_team(app):
    phones = Phones(app, cube_mode="single")
    assert re.search(r'data-member="B"[\s\S]*?name="by" value="B"', phones.live("B"))
    assert "B" not in phones.doubles_shown("C")
    phones.refused("C", "double", {"by": "B"})
    phones.made("B", "double", {"by": "B"}, {"type": "double", "by": "B"})
    assert "The team (B) doubles you to 2." in decision_block(phones.live("A"))
    for other in "BCD":
        phones.refused(other, "answer", {"cube": "team", "answer": "take"})
    phones.made("A", "answer", {"cube": "team", "answer": "take"}, {"type": "take", "cube": "team"})


def test_single_cube_the_captain_answers_the_boxs_beaver_for_the_team(app):
    phones = Phones(app, cube_mode="single", **BEAVERS)
    phones.table.play({"type": "double", "by": "B"}, {"type": "beaver", "cube": "team"})
    assert "A beavers: the cube goes to 4." in decision_block(phones.live("B"))
    assert decision_block(phones.live("C")) == ""
    phones.refused("C", "answer", {"cube": "team", "answer": "take"})
    phones.refused("A", "answer", {"cube": "team", "answer": "take"})
    phones.made("B", "answer", {"cube": "team", "answer": "take"}, {"type": "take", "cube": "team"})


def test_single_cube_each_member_answers_the_boxs_double_on_their_own(app):
    phones = Phones(app, cube_mode="single")
    phones.table.play({"type": "double", "by": "box"})
    for name in "BCD":
        assert "A doubles you to 2." in decision_block(phones.live(name))
    phones.refused("C", "answer", {"cube": "B", "answer": "take"})
    phones.refused("B", "answer", {"cube": "C", "answer": "take"})
    phones.made("C", "answer", {"cube": "C", "answer": "take"}, {"type": "take", "cube": "C"})


# --------------------------------------------------------------------------- the partnership


def test_the_player_offered_the_partnership_accepts_it_from_their_phone(app):
    phones = Phones(app, partner_min_players=3)
    block = decision_block(phones.live("B"))
    assert "You are offered the partnership with the box, A." in block
    assert 'name="answer" value="accept"' in block and 'name="answer" value="decline"' in block
    for other in "ACD":
        assert decision_block(phones.live(other)) == ""
        phones.refused(other, "partner", {"player": "B", "answer": "accept"})
    signed_out_goes_to_sign_in(app, phones.table, "partner", {"player": "B", "answer": "accept"})
    phones.made("B", "partner", {"player": "B", "answer": "accept"},
                {"type": "partner", "player": "B", "accept": True})
    assert phones.table.state().partner == "B"


def test_a_declined_partnership_is_offered_to_the_next_who_answers_it_themselves(app):
    phones = Phones(app, partner_min_players=3)
    phones.made("B", "partner", {"player": "B", "answer": "decline"},
                {"type": "partner", "player": "B", "accept": False})
    assert decision_block(phones.live("B")) == ""
    assert "You are offered the partnership" in decision_block(phones.live("C"))
    phones.refused("B", "partner", {"player": "C", "answer": "decline"})
    # Offering it to oneself out of turn is refused by the rules, and nothing is written.
    before = phones.table.log()
    response = phones.post("D", "partner", {"player": "D", "answer": "accept"}, htmx=True)
    assert response.status_code == 422 and "must be offered to C" in response.get_data(as_text=True)
    assert phones.table.log() == before


def test_a_player_may_not_draw_the_partner(app):
    phones = Phones(app, partner_min_players=3)
    phones.table.play(*[{"type": "partner", "player": n, "accept": False} for n in "BCD"])
    phones.refused("C", "partner", {"answer": "draw"})
    phones.refused("A", "partner", {"answer": "nonsense"})


# --------------------------------------------------------------------------- extras


def lone_take(phones: Phones) -> None:
    """A doubles B, C, D, E at once; B, C, D drop and E takes alone: extras may be given."""
    phones.table.play({"type": "double", "by": "box", "cubes": list("BCDE")},
                      *[{"type": "drop", "cube": n} for n in "BCD"], {"type": "take", "cube": "E"})


def test_a_dropper_gives_the_lone_taker_an_extra_from_their_phone(app):
    phones = Phones(app, "ABCDE", **EXTRAS)
    lone_take(phones)
    block = decision_block(phones.live("C"))
    assert "E took alone: you may give E an extra cube" in block
    assert 'name="giver" value="C"' in block and 'name="taker" value="E"' in block
    for other in "ADE":  # the box, another dropper (their own extra is theirs), the taker
        phones.refused(other, "extra", {"giver": "C", "taker": "E"})
    assert 'name="giver" value="C"' not in phones.live("D")
    signed_out_goes_to_sign_in(app, phones.table, "extra", {"giver": "C", "taker": "E"})
    phones.made("C", "extra", {"giver": "C", "taker": "E"}, {"type": "extra", "from": "C", "to": "E"})
    phones.made("D", "extra", {"giver": "D", "taker": "E"}, {"type": "extra", "from": "D", "to": "E"})
    assert [e.giver for e in phones.table.state().game.extras] == ["C", "D"]


def test_the_extra_cubes_decisions_are_its_holders(app):
    phones = Phones(app, "ABCDE", **EXTRAS)
    lone_take(phones)
    phones.table.play({"type": "extra", "from": "C", "to": "E"})
    # The taker owns the extra cube and redoubles it; the giver (on the box's side) answers.
    assert re.search(r'name="extra" value="C"[\s\S]*?name="by" value="E"', phones.live("E"))
    phones.refused("C", "double", {"by": "E", "extra": "C"})
    phones.made("E", "double", {"by": "E", "extra": "C"}, {"type": "double", "by": "E", "extra": "C"})
    block = decision_block(phones.live("C"))
    assert "Extra cube 2 from C to E" in block and "E doubles you to 4." in block
    for other in "ADE":
        phones.refused(other, "answer", {"extra": "C", "answer": "take"})
    phones.made("C", "answer", {"extra": "C", "answer": "take"}, {"type": "take", "extra": "C"})


# --------------------------------------------------------------------------- the organizer


def test_the_organizer_still_makes_every_decision(app, client):
    phones = Phones(app, "ABCDE", **EXTRAS)
    sign_in(client, phones.table.owner)
    assert post(client, phones.table, "double", {"by": "C"}).status_code == 303
    assert post(client, phones.table, "answer", {"cube": "C", "answer": "take"}).status_code == 303
    phones.table.play({"type": "undo"}, {"type": "undo"})
    lone_take(phones)
    assert post(client, phones.table, "extra", {"giver": "B", "taker": "E"}).status_code == 303
    assert phones.table.log()[-1] == {"type": "extra", "from": "B", "to": "E"}
    # Nothing waits for the organizer as a player: they are not seated.
    assert decision_block(client.get(f"{phones.table.url}/live", headers=HTMX).get_data(as_text=True)) == ""


def test_a_signed_in_member_not_at_the_table_makes_no_decision(app, client):
    phones = Phones(app)
    phones.table.play({"type": "double", "by": "C"})
    with app.app_context():
        stranger = gen_member("player", name="Zed")
    sign_in(client, stranger)
    before = phones.table.log()
    for action, data in (("answer", {"cube": "C", "answer": "take"}), ("double", {"by": "D"}),
                         ("partner", {"player": "Zed", "answer": "accept"}),
                         ("extra", {"giver": "Zed", "taker": "C"})):
        assert post(client, phones.table, action, data).status_code == 403
    assert phones.table.log() == before


# --------------------------------------------------------------------------- who decides (the rule itself)


@pytest.mark.parametrize(("settings", "events", "event", "who"), [
    ({}, [], {"type": "double", "by": "box", "cubes": ["C"]}, "A"),
    ({}, [], {"type": "double", "by": "C"}, "C"),
    ({}, [{"type": "double", "by": "C"}], {"type": "take", "cube": "C"}, "A"),
    ({}, [{"type": "double", "by": "box", "cubes": ["C", "D"]}], {"type": "take", "cube": "D"}, "D"),
    (BEAVERS, [{"type": "double", "by": "C"}, {"type": "beaver", "cube": "C"}], {"type": "raccoon", "cube": "C"}, "C"),
    ({"cube_mode": "single"}, [{"type": "double", "by": "B"}], {"type": "drop", "cube": "team"}, "A"),
    ({"cube_mode": "single", **BEAVERS}, [{"type": "double", "by": "B"}, {"type": "beaver", "cube": "team"}],
     {"type": "take", "cube": "team"}, "B"),
    ({}, [], {"type": "result", "winner": "box", "kind": "single"}, None),
    ({}, [], {"type": "roll", "dice": [3, 1]}, None),
    ({}, [], {"type": "undo"}, None),
    ({}, [{"type": "double", "by": "C"}], {"type": "take", "cube": "D"}, None),  # nothing waits on D
    (BEAVERS, [{"type": "double", "by": "box", "cubes": ["C", "D"]}, {"type": "beaver", "cube": "C"}],
     {"type": "take", "cube": "C"}, "A"),
    (BEAVERS, [{"type": "double", "by": "box", "cubes": ["C", "D"]}, {"type": "beaver", "cube": "C"}],
     {"type": "take", "cube": "D"}, "D"),
])
def test_decider_names_the_player_whose_decision_it_is(settings, events, event, who):
    names = ["A", "B", "C", "D"]
    state = fold(settings, [*({"type": "join", "player": n} for n in names),
                            {"type": "order", "players": names}, *events])
    assert deciders.decider(state, event) == who


def test_decisions_of_a_player_are_the_legal_ones_that_are_theirs(app):
    names = ["A", "B", "C", "D"]
    state = fold({}, [*({"type": "join", "player": n} for n in names), {"type": "order", "players": names},
                      {"type": "double", "by": "box", "cubes": ["C", "D"]}])
    assert deciders.decisions_of("C", state) == [{"type": "take", "cube": "C"}, {"type": "drop", "cube": "C"}]
    assert deciders.waiting_for("A", state) == [] and deciders.waiting_for("B", state) == []


# --------------------------------------------------------------------------- the page and the home page


def test_the_decision_stands_at_the_top_of_the_table_with_a_key_that_changes_with_the_offer(app):
    phones = Phones(app, **BEAVERS)
    phones.table.play({"type": "double", "by": "box", "cubes": ["C"]})
    html = phones.live("C")
    status, block = html.index('class="live-status"'), html.index('class="card my-decision"')
    assert status < block < html.index('class="live-grid"')
    first = re.search(r'data-decision-key="([^"]+)"', html).group(1)
    assert first.startswith(f"{phones.table.id}:")
    phones.table.play({"type": "beaver", "cube": "C"}, {"type": "raccoon", "cube": "C"})
    second = re.search(r'data-decision-key="([^"]+)"', phones.live("C")).group(1)
    assert second != first
    # The whole page loads the script that vibrates the phone for a new decision.
    assert "js/decision.js" in phones.phone("C").get(phones.table.url).get_data(as_text=True)


def test_the_decision_buttons_work_without_javascript_with_the_csrf_token(csrf_app):
    from tests.conftest import csrf_token_from

    phones = Phones(csrf_app)
    phones.table.play({"type": "double", "by": "C"})
    box = csrf_app.test_client()
    token = csrf_token_from(box.get("/auth/login").data)
    assert box.post("/auth/login", data={"username": phones.members["A"].username, "password": PASSWORD,
                                          "csrf_token": token}).status_code == 303
    phones.clients["A"] = box
    page = box.get(phones.table.url)
    block = decision_block(page.get_data(as_text=True))
    assert 'name="csrf_token"' in block and 'method="post"' in block
    token = csrf_token_from(page.data)
    response = phones.phone("A").post(f"{phones.table.url}/answer", data={
        "seq": phones.table.seq(), "csrf_token": token, "cube": "C", "answer": "take"})
    assert response.status_code == 303 and phones.table.log()[-1] == {"type": "take", "cube": "C"}


def test_the_home_page_says_where_a_player_sits_and_that_a_decision_waits(app):
    phones = Phones(app)
    home = phones.phone("C").get("/").get_data(as_text=True)
    assert "Where you sit" in home and f'href="/tables/{phones.table.id}"' in home
    assert re.search(r"Your seat:\s*<strong>Line 1</strong>", home)
    assert "A decision waits for you" not in home
    assert re.search(r"Your seat:\s*<strong>Box</strong>", phones.phone("A").get("/").get_data(as_text=True))
    assert re.search(r"Your seat:\s*<strong>Captain</strong>", phones.phone("B").get("/").get_data(as_text=True))
    phones.table.play({"type": "double", "by": "box", "cubes": ["C"]})
    assert "A decision waits for you" in phones.phone("C").get("/").get_data(as_text=True)
    assert "A decision waits for you" not in phones.phone("D").get("/").get_data(as_text=True)


def test_the_home_page_of_a_member_at_no_table_has_no_seat(app, client):
    phones = Phones(app)
    with app.app_context():
        stranger = gen_member("player", name="Zed")
    sign_in(client, stranger)
    home = client.get("/").get_data(as_text=True)
    assert "Where you sit" not in home and phones.table.url in home  # the night's tables still listed


def test_the_home_page_says_who_waits_for_the_order(app):
    table = Table(app)
    with app.app_context():
        ann = gen_member("player", name="Ann")
    table.play({"type": "join", "player": "Ann"})
    client = app.test_client()
    sign_in(client, ann)
    assert re.search(r"Your seat:\s*<strong>Waiting for the starting order</strong>",
                     client.get("/").get_data(as_text=True))
