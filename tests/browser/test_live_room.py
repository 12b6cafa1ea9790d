"""The live room in a real browser: several devices at once, each kept current by push, none
losing its place or what is being typed when another device changes the table."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from chouette.engine import legal_moves
from chouette.extensions import db
from chouette.models import Member
from chouette.services import commands, display, table_states, tables
from tests.browser.conftest import OFF_SITE, start_live_server
from tests.factories import PASSWORD, gen_member, gen_night, gen_table

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1024, "height": 768}
TV = {"width": 1920, "height": 1080}


class Room:
    """A night with one table run by Olga, and helpers to play on it from the server side."""

    def __init__(self, server: Any, settings: dict[str, Any] | None = None) -> None:
        self.server = server
        app = server.app
        with app.app_context():
            self.owner = gen_member("organizer", name="Olga")
            self.members = {name: gen_member("player", name=name) for name in "ABCD"}
            night = gen_night(opened_by_id=self.owner.id)
            table = gen_table(night, created_by_id=self.owner.id,
                              settings={**tables.TABLE_DEFAULTS, **(settings or {})})
            self.table_id, self.night_id = table.id, night.id

    @property
    def url(self) -> str:
        return f"{self.server.url}/tables/{self.table_id}"

    def play(self, *events: dict[str, Any]) -> None:
        """Events made by the organizer, straight through the commands (another device)."""
        with self.server.app.app_context():
            owner = db.session.get(Member, self.owner.id)
            for event in events:
                commands.play(self.table_id, tables.last_seq(self.table_id), event, owner)
            db.session.commit()

    def state(self):
        with self.server.app.app_context():
            return table_states.load_play(self.table_id).state

    def seq(self) -> int:
        with self.server.app.app_context():
            return tables.last_seq(self.table_id)


def device(browser: Browser, viewport: dict[str, int]) -> BrowserContext:
    """A new device (its own cookies), cut off from every host but the server."""
    context = browser.new_context(viewport=viewport)
    context.route(OFF_SITE, lambda route: route.abort())
    context.set_default_timeout(10_000)
    return context


def sign_in(page: Page, base: str, member: Member) -> None:
    page.goto(f"{base}/auth/login")
    page.get_by_label("Username").fill(member.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name=f"Hello, {member.name}")).to_be_visible()


def open_table(browser: Browser, room: Room, member: Member, viewport: dict[str, int]) -> Page:
    """A device signed in as ``member`` on the table page, its stream open."""
    page = device(browser, viewport).new_page()
    sign_in(page, room.server.url, member)
    page.goto(room.url)
    expect(page.locator(".live-push")).to_have_attribute("data-push", "open")
    return page


def live(page: Page, room: Room):
    return page.locator(f"#table-live-{room.table_id}")


def polls(page: Page, room: Room) -> list[str]:
    """Record every fetch of the live table the page makes from now on."""
    seen: list[str] = []
    page.on("request", lambda request: seen.append(request.url)
            if request.url.endswith(f"/tables/{room.table_id}/live") else None)
    return seen


def test_a_decision_made_on_one_device_reaches_every_other_without_reload(browser: Browser, live_server, screenshot):
    room = Room(live_server)
    room.play(*[{"type": "join", "player": n} for n in "ABCD"], {"type": "order", "players": list("ABCD")})
    tablet = open_table(browser, room, room.owner, TABLET)
    phone_c = open_table(browser, room, room.members["C"], PHONE)
    phone_d = open_table(browser, room, room.members["D"], PHONE)
    tv = device(browser, TV).new_page()
    tv.goto(f"{live_server.url}/display")
    expect(tv.locator("#display-board")).to_contain_text("C")
    fetched = polls(phone_c, room)
    # Nothing reloads a page from here on: each one learns of the change by its stream.
    for page in (tablet, phone_c, phone_d):
        page.evaluate("window.chouetteNoReload = true")

    room.play({"type": "double", "by": "box", "cubes": ["C", "D"]})
    expect(live(phone_c, room).locator(".my-decision").get_by_role("button", name="Take")).to_be_visible()
    expect(live(phone_d, room).locator(".my-decision").get_by_role("button", name="Take")).to_be_visible()
    expect(live(tablet, room)).to_have_attribute("data-version", f"{room.seq()}-1")
    screenshot("live-room-phone-decision", phone_c)

    # C takes on their phone: the tablet, D's phone and the TV show it, nobody reloads.
    seq = room.seq()
    live(phone_c, room).locator(".my-decision").get_by_role("button", name="Take").click()
    version = f"{seq + 1}-1"  # the take, once written (read before the click: no race)
    for page in (tablet, phone_d, phone_c):
        expect(live(page, room)).to_have_attribute("data-version", version)
    expect(live(phone_c, room).locator(".my-decision").get_by_role("button", name="Take")).to_have_count(0)
    assert room.state().game.box_double.answers.get("C") == "take"
    for page in (tablet, phone_c, phone_d):
        assert page.evaluate("window.chouetteNoReload") is True
    assert len(fetched) <= 2  # pushed, not polled: one fetch per change at most
    screenshot("live-room-tablet-after-take", tablet)
    for page in (tablet, phone_c, phone_d, tv):
        page.context.close()


def _board_game(room: Room) -> None:
    """Seat four and start a game on the board: the box opens with 5-3."""
    room.play(*[{"type": "join", "player": n} for n in "ABCD"], {"type": "order", "players": list("ABCD")})
    room.play({"type": "opening_roll", "box": 5, "team": 3})


def _a_legal_move(room: Room) -> str:
    game = room.state().game
    return str(legal_moves(game.position, game.dice)[0])


def test_playing_a_move_keeps_the_page_where_it_is_and_shows_a_refusal_in_view(browser: Browser, live_server, screenshot):
    room = Room(live_server)
    _board_game(room)
    for viewport in (TABLET, PHONE):
        if room.state().game.dice is None:
            room.play({"type": "roll", "dice": [4, 2]})
        tablet = open_table(browser, room, room.owner, viewport)
        move_box = tablet.locator(f"#board-{room.table_id}-move")
        move_box.scroll_into_view_if_needed()
        tablet.evaluate("window.scrollBy(0, 120)")
        before = tablet.evaluate("window.scrollY")

        # An illegal move: refused in view, the page does not move, the typing stays.
        move_box.fill("24/1")
        move_box.press("Enter")
        error = live(tablet, room).locator("[role=alert]").first
        expect(error).to_be_visible()
        expect(error).to_be_in_viewport()
        assert tablet.evaluate("window.scrollY") == before
        expect(move_box).to_have_value("24/1")
        screenshot(f"live-room-refusal-{viewport['width']}", tablet)

        # A legal move: played, the page stays where it was.
        seq = room.seq()
        move_box.fill(_a_legal_move(room))
        move_box.press("Enter")
        expect(live(tablet, room)).to_have_attribute("data-version", f"{seq + 1}-1")
        assert tablet.evaluate("window.scrollY") == before
        tablet.context.close()



def test_what_is_being_typed_survives_a_change_pushed_by_another_device(browser: Browser, live_server, screenshot):
    room = Room(live_server)
    room.play(*[{"type": "join", "player": n} for n in "ABCD"], {"type": "order", "players": list("ABCD")},
              {"type": "result", "winner": "box", "kind": "single"})
    tablet = open_table(browser, room, room.owner, TABLET)
    table = live(tablet, room)
    # Half a name in Join, a pasted Position ID, an open correction form with its reason.
    tablet.locator(f"#join-player-{room.table_id}").fill("Zo")
    tablet.locator(f"#final-id-{room.table_id}").fill("4HPwATDgc/ABMA")
    correction = tablet.locator(f"#correct-{room.table_id}-1")
    correction.locator("summary").click()
    correction.locator("select[name=fix]").select_option("team-gammon")
    correction.locator("input[name=reason]").fill("the team bore off fir")
    tablet.locator(f"#join-player-{room.table_id}").focus()  # the organizer is typing the name

    # Another device: the box doubles, Cy takes. Each change reaches the tablet by push.
    room.play({"type": "double", "by": "box", "cubes": ["C"]})
    expect(table).to_have_attribute("data-version", f"{room.seq()}-1")
    room.play({"type": "take", "cube": "C"})
    expect(table).to_have_attribute("data-version", f"{room.seq()}-1")
    expect(table.locator("[data-member=C]")).to_contain_text("2")

    expect(tablet.locator(f"#join-player-{room.table_id}")).to_have_value("Zo")
    expect(tablet.locator(f"#join-player-{room.table_id}")).to_be_focused()
    expect(tablet.locator(f"#final-id-{room.table_id}")).to_have_value("4HPwATDgc/ABMA")
    expect(correction).to_have_attribute("open", "")
    expect(correction.locator("select[name=fix]")).to_have_value("team-gammon")
    expect(correction.locator("input[name=reason]")).to_have_value("the team bore off fir")
    # The forms send the new seq (hx-vals on the live table): what the organizer typed posts
    # against the table as it is now.
    expect(table).to_have_attribute("hx-vals", f'{{"seq": "{room.seq()}"}}')
    screenshot("live-room-typing-kept", tablet)

    # The organizer's own action takes the server's answer: the correction is recorded, its
    # form closes, and the name they are typing elsewhere stays.
    correction.locator("input[name=reason]").fill("the team bore off first")
    correction.get_by_role("button", name="Record the correction").click()
    expect(table.locator(".correction")).to_contain_text("the team bore off first")
    expect(tablet.locator(f"#join-player-{room.table_id}")).to_have_value("Zo")
    tablet.context.close()


def test_a_page_whose_stream_cannot_be_held_polls_instead(browser: Browser, live_server):
    """A proxy that refuses the stream: the page falls back to polling and stays current."""
    room = Room(live_server)
    room.play(*[{"type": "join", "player": n} for n in "ABCD"], {"type": "order", "players": list("ABCD")})
    context = device(browser, PHONE)
    context.route("**/stream", lambda route: route.fulfill(status=502, body="Bad gateway"))
    phone = context.new_page()
    sign_in(phone, live_server.url, room.members["C"])
    phone.goto(room.url)
    room.play({"type": "double", "by": "box", "cubes": ["C"]})
    expect(live(phone, room)).to_have_attribute("data-version", f"{room.seq()}-1")
    expect(live(phone, room).locator(".my-decision").get_by_role("button", name="Take")).to_be_visible()
    assert phone.locator(".live-push").get_attribute("data-push") == "polling"
    context.close()


def test_a_stream_that_ends_reconnects_by_itself_and_catches_up(browser: Browser, tmp_path):
    """Streams that last a second (as after a worker restart): the page reconnects each time
    and shows every change, without a reload."""
    server = start_live_server(tmp_path, PUSH_STREAM_SECONDS=1.0, PUSH_KEEPALIVE_SECONDS=0.5)
    try:
        room = Room(server)
        room.play(*[{"type": "join", "player": n} for n in "ABCD"], {"type": "order", "players": list("ABCD")})
        tablet = open_table(browser, room, room.owner, TABLET)
        streams: list[str] = []
        tablet.on("request", lambda request: streams.append(request.url) if request.url.endswith("/stream") else None)
        tablet.evaluate("window.chouetteNoReload = true")
        for event in ({"type": "double", "by": "box", "cubes": ["C"]}, {"type": "take", "cube": "C"},
                      {"type": "double", "by": "C"}, {"type": "take", "cube": "C"}):
            tablet.wait_for_timeout(1200)  # across the end of a stream
            room.play(event)
            expect(live(tablet, room)).to_have_attribute("data-version", f"{room.seq()}-1")
        assert len(streams) >= 3  # it did reconnect, and caught up each time
        assert tablet.evaluate("window.chouetteNoReload") is True
        tablet.context.close()
    finally:
        server.stop()


def test_pages_render_with_every_other_host_hanging(browser: Browser, live_server):
    """The club's wifi without internet: any other host hangs. The table page and the big
    screen ask nothing of them, so they render at once, htmx and push working."""
    room = Room(live_server)
    room.play(*[{"type": "join", "player": n} for n in "ABCD"], {"type": "order", "players": list("ABCD")})
    context = browser.new_context(viewport=TABLET)
    elsewhere: list[str] = []
    context.route(OFF_SITE, lambda route: elsewhere.append(route.request.url))  # never answered: hangs
    page = context.new_page()
    sign_in(page, live_server.url, room.owner)
    for path in (f"/tables/{room.table_id}", "/display"):
        # A page that needed a hanging host would never reach "load": that, and no request
        # elsewhere at all, is the proof (no clock involved).
        page.goto(f"{live_server.url}{path}", wait_until="load")
        assert page.evaluate("typeof window.htmx") == "object"
        assert page.evaluate("typeof window.Idiomorph") == "object"
    expect(page.locator("#display-board")).to_be_visible()
    assert elsewhere == []
    context.close()


def test_a_stale_page_says_so_in_place_and_shows_the_table_as_it_is(browser: Browser, live_server):
    room = Room(live_server)
    room.play(*[{"type": "join", "player": n} for n in "ABCD"], {"type": "order", "players": list("ABCD")})
    context = device(browser, TABLET)
    context.route("**/stream", lambda route: route.fulfill(status=502, body="Bad gateway"))  # no push
    tablet = context.new_page()
    sign_in(tablet, live_server.url, room.owner)
    tablet.goto(room.url)
    seq = room.seq()
    room.play({"type": "double", "by": "box", "cubes": ["C"]})  # another device, unseen yet
    # The page still offers what it offered: the box doubles D. The server says no.
    live(tablet, room).locator("input[name=cubes][value=D]").check()
    button = live(tablet, room).get_by_role("button", name="The box doubles the ticked cubes")
    button.scroll_into_view_if_needed()
    tablet.evaluate("window.scrollBy(0, 200)")
    before = tablet.evaluate("window.scrollY")
    button.click()
    error = live(tablet, room).locator(".live-error")
    expect(error).to_be_visible()
    expect(error).to_be_in_viewport()
    expect(live(tablet, room)).to_have_attribute("data-version", f"{seq + 1}-1")
    assert tablet.evaluate("window.scrollY") == before
    assert room.seq() == seq + 1  # nothing written
    context.close()


def test_a_table_played_from_everyones_phone_every_device_follows_without_reload(browser: Browser, live_server, screenshot):
    """The organizer's tablet, five phones and the TV, all open at once. Every decision is made
    on the phone of the player it belongs to; every other device shows it by push alone."""
    names = ["Ann", "Bob", "Cy", "Dee", "Eve"]
    app = live_server.app
    with app.app_context():
        owner = gen_member("organizer", name="Olga")
        members = {name: gen_member("player", name=name) for name in names}
        night = gen_night(opened_by_id=owner.id)
        night_id = night.id
        table_id = gen_table(night, created_by_id=owner.id, settings={
            **tables.TABLE_DEFAULTS, "extras": True, "partner_min_players": 3}).id
        # What the pages need of each member, read before the commits expire the rows.
        who = {m.name: SimpleNamespace(id=m.id, name=m.name, username=m.username)
               for m in (owner, *members.values())}
        for event in [*({"type": "join", "player": n} for n in names), {"type": "order", "players": names}]:
            commands.play(table_id, tables.last_seq(table_id), event, owner)
        db.session.commit()
    owner, members = who["Olga"], {name: who[name] for name in names}
    room = object.__new__(Room)
    room.server, room.owner, room.members, room.table_id, room.night_id = live_server, owner, members, table_id, night_id
    tablet = open_table(browser, room, owner, TABLET)
    phones = {name: open_table(browser, room, members[name], PHONE) for name in names}
    tv = device(browser, TV).new_page()
    tv.goto(f"{live_server.url}/display")
    expect(tv.locator(".display-push")).to_have_attribute("data-push", "open")
    everyone = [tablet, *phones.values()]
    for page in (*everyone, tv):
        page.evaluate("window.chouetteNoReload = true")

    def decision(name: str):
        return phones[name].locator(f"#my-decision-{table_id}")

    def all_follow(seq: int) -> None:
        """Every page shows the table at ``seq`` (the action just made written), the TV too."""
        version = f"{seq}-1"
        for page in everyone:
            expect(live(page, room)).to_have_attribute("data-version", version)
        with app.app_context():
            shown = display.display_version(None)
        expect(tv.locator("#display-board")).to_have_attribute("data-version", shown)

    def act(click) -> None:
        """One decision, made on a phone: then everyone follows."""
        seq = room.seq()
        click()
        all_follow(seq + 1)

    # The partnership is offered to Bob, who accepts on their phone.
    act(decision("Bob").get_by_role("button", name="Accept").click)
    for page in (tablet, phones["Ann"], phones["Eve"]):
        expect(page.locator(".seat-partner")).to_contain_text("Bob")

    # The box doubles three members from her phone; each answers on their own.
    for name in ("Cy", "Dee", "Eve"):
        phones["Ann"].locator(f'.cube-row[data-member="{name}"]').get_by_label("box doubles").check()
    act(phones["Ann"].get_by_role("button", name="The box doubles the ticked cubes").click)
    for name, answer in (("Cy", "Drop"), ("Dee", "Drop"), ("Eve", "Take")):
        expect(decision(name)).to_contain_text("Ann doubles you to 2.")
        act(decision(name).get_by_role("button", name=answer).click)
        expect(decision(name).locator(".decision-cube")).to_have_count(0)  # a drop's take-back may show
        row = tv.locator(f"#display-table-{table_id} tr", has_text=name)
        # Their answer while others still think; once all have answered, the cube as it stands.
        expect(row).to_contain_text(re.compile("drop" if answer == "Drop" else "take|owns"))
    screenshot("live-room-tv-after-answers", tv)

    # Eve took alone: Cy gives her an extra cube from Cy's phone.
    expect(decision("Cy")).to_contain_text("Eve took alone")
    act(decision("Cy").get_by_role("button", name="Give Eve an extra cube").click)
    for page in (tablet, phones["Ann"], phones["Eve"]):
        expect(page.locator('.extra-cube[data-extra="Cy"]')).to_contain_text("Extra cube 2 from Cy to Eve")

    # Eve doubles the box from her phone; the box answers from hers.
    act(phones["Eve"].locator('.cube-row[data-member="Eve"]').get_by_role("button", name="Double").click)
    expect(decision("Ann")).to_contain_text("Eve doubles you to 4.")
    act(decision("Ann").get_by_role("button", name="Take").click)
    for page in everyone:
        expect(page.locator('.cube-row[data-member="Eve"] .cube-value')).to_have_text("4")
    screenshot("live-room-tablet-end", tablet)
    for page in (*everyone, tv):
        assert page.evaluate("window.chouetteNoReload") is True
        page.context.close()


def test_a_phone_takes_its_table_from_its_stream_and_acts_from_it(browser: Browser, live_server, screenshot):
    """A member's phone with nothing to answer takes each new table from its push stream (no
    fetch): their own row marked, their own Double button and nobody else's, their place kept; and
    that button posts (htmx sends their session's CSRF token and the drawing's seq)."""
    room = Room(live_server)  # multi-cube: each member may double the box
    room.play(*[{"type": "join", "player": n} for n in "ABCD"], {"type": "order", "players": list("ABCD")},
              {"type": "result", "winner": "box", "kind": "single"},
              {"type": "result", "winner": "team", "kind": "gammon"})
    phone = open_table(browser, room, room.members["D"], PHONE)
    fetched = polls(phone, room)
    table = live(phone, room)
    phone.evaluate("window.scrollTo(0, document.body.scrollHeight / 2)")
    scrolled = phone.evaluate("window.scrollY")
    assert scrolled > 0

    room.play({"type": "double", "by": "box", "cubes": ["B"]})  # B must answer; D has nothing to answer
    expect(table).to_have_attribute("data-version", f"{room.seq()}-1")
    room.play({"type": "take", "cube": "B"})
    expect(table).to_have_attribute("data-version", f"{room.seq()}-1")
    expect(table.locator("[data-member=B]")).to_contain_text("2")
    assert fetched == []  # both tables came in the stream
    assert phone.evaluate("window.scrollY") == scrolled
    expect(table.locator(".cube-row.is-me")).to_have_attribute("data-member", "D")
    doubles = table.locator("form:has(input[name=by]) button:visible", has_text="Double")
    expect(doubles).to_have_count(1)
    expect(table.locator("form:visible input[name=by]")).to_have_value("D")
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot("phone-pushed-table", phone)

    doubles.click()  # from the pushed drawing
    expect(table.locator("[data-member=D]")).to_contain_text("box to answer", timeout=10_000)
    with live_server.app.app_context():
        assert tables.table_log(room.table_id)[-1] == {"type": "double", "by": "D"}
    phone.context.close()


def test_two_members_get_one_drawing_each_page_marks_its_own_and_posts_with_its_token(
        browser: Browser, live_server, screenshot):
    """Two members with nothing to answer fetch the same bytes of the live table (one drawing
    per version), and each page marks its own seat and cube and shows its own Double button
    only (static/js/mine.js). A post from the page carries the session's CSRF token in its
    X-CSRFToken header (hx-headers) and the table's seq (hx-vals), and is taken; the same post
    without the token is refused and writes nothing."""
    room = Room(live_server)  # multi-cube: each member may double the box
    room.play(*[{"type": "join", "player": n} for n in "ABCD"], {"type": "order", "players": list("ABCD")})
    pages = {"C": open_table(browser, room, room.members["C"], PHONE),
             "D": open_table(browser, room, room.members["D"], TABLET)}
    fetch = """url => fetch(url, {headers: {"HX-Request": "true"}}).then(r => r.text())"""
    drawings = {name: page.evaluate(fetch, f"{room.url}/live") for name, page in pages.items()}
    assert drawings["C"] == drawings["D"] and "csrf_token" not in drawings["C"]
    for name, page in pages.items():
        table = live(page, room)
        expect(table.locator(".cube-row.is-me")).to_have_attribute("data-member", name)
        expect(table.locator(".seat-table tr.is-me .seat-player")).to_have_text(name)
        expect(table.locator(".is-me")).to_have_count(2)  # their cube and their seat, nobody else's
        visible = table.locator("form:visible input[name=by]")
        expect(visible).to_have_count(1)
        expect(visible).to_have_value(name)
        screenshot(f"two-members-{name}", page)

    # A change pushed by another device: each page marks its own again.
    room.play({"type": "double", "by": "box", "cubes": ["B"]}, {"type": "take", "cube": "B"})
    for name, page in pages.items():
        expect(live(page, room)).to_have_attribute("data-version", f"{room.seq()}-1")
        expect(live(page, room).locator(".cube-row.is-me")).to_have_attribute("data-member", name)

    phone = pages["D"]
    token = phone.evaluate("""JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]""")
    seq = room.seq()
    before = len(room.state().effective)
    refused = phone.request.post(f"{room.url}/double", form={"seq": str(seq), "by": "D"},
                                 headers={"HX-Request": "true"})
    assert refused.status == 400 and len(room.state().effective) == before
    with phone.expect_request(lambda request: request.url.endswith("/double")) as posted:
        live(phone, room).locator("form:visible button", has_text="Double").click()
    request = posted.value
    assert request.headers.get("x-csrftoken") == token
    assert f"seq={seq}" in (request.post_data or "") and "csrf_token" not in (request.post_data or "")
    expect(live(phone, room).locator("[data-member=D]")).to_contain_text("box to answer", timeout=10_000)
    with live_server.app.app_context():
        assert tables.table_log(room.table_id)[-1] == {"type": "double", "by": "D"}
    for page in pages.values():
        page.context.close()


def test_a_pushed_table_keeps_what_a_player_types_and_where_they_are_on_every_screen_size(
        browser: Browser, live_server, screenshot):
    """D's phone, tablet and laptop at 390x844, 1024x768 and 1920x1080, a Position ID typed
    and focused in each, and the page scrolled: two changes from the organizer's device come
    through the streams (no fetch) and leave the typing, the focus and the scroll as they were,
    with nothing scrolling sideways; the TV follows."""
    room = Room(live_server)
    room.play(*[{"type": "join", "player": n} for n in "ABCD"], {"type": "order", "players": list("ABCD")},
              {"type": "result", "winner": "box", "kind": "single"},
              {"type": "result", "winner": "team", "kind": "gammon"})
    pages = {f"{size['width']}x{size['height']}": open_table(browser, room, room.members["D"], size)
             for size in (PHONE, TABLET, TV)}
    tv = device(browser, TV).new_page()
    tv.goto(f"{live_server.url}/display")
    expect(tv.locator(".display-push")).to_have_attribute("data-push", "open")
    fetched = {name: polls(page, room) for name, page in pages.items()}
    for page in pages.values():
        field = page.locator(f"#show-id-{room.table_id}")
        field.scroll_into_view_if_needed()
        field.fill("4HPwATDgc/ABMA")
        field.focus()
        page.evaluate("window.scrollBy(0, 37)")
    scrolls = {name: page.evaluate("window.scrollY") for name, page in pages.items()}

    room.play({"type": "double", "by": "box", "cubes": ["B"]})
    room.play({"type": "take", "cube": "B"})
    for name, page in pages.items():
        expect(live(page, room)).to_have_attribute("data-version", f"{room.seq()}-1")
        expect(live(page, room).locator("[data-member=B]")).to_contain_text("2")
        expect(page.locator(f"#show-id-{room.table_id}")).to_have_value("4HPwATDgc/ABMA")
        expect(page.locator(f"#show-id-{room.table_id}")).to_be_focused()
        assert page.evaluate("window.scrollY") == scrolls[name], name
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), name
        assert fetched[name] == [], name  # the tables came in the stream
        screenshot(f"pushed-table-typing-{name}", page)
    with live_server.app.app_context():
        shown = display.display_version(None)
    expect(tv.locator("#display-board")).to_have_attribute("data-version", shown)
    expect(tv.locator(f"#display-table-{room.table_id}")).to_contain_text("owns", ignore_case=True)
    screenshot("pushed-table-typing-tv", tv)
    for page in (*pages.values(), tv):
        page.context.close()


def test_the_organizer_keeps_their_house_rules_form_and_correction_while_games_go_on_on_every_screen_size(
        browser: Browser, live_server, screenshot):
    """The organizer's tablet at 390x844, 1024x768 and 1920x1080 has the house-rules form open
    with a new stake typed and a box ticked, and a correction half typed; another device doubles,
    takes, and ends the game. Each change arrives by push: the form stays open with what they
    typed, where it was on the screen, its sentence names the next game and the new game's
    rows are in the history; nothing scrolls sideways."""
    room = Room(live_server)
    room.play(*[{"type": "join", "player": n} for n in "ABCD"], {"type": "order", "players": list("ABCD")},
              {"type": "result", "winner": "box", "kind": "single"})
    pages = {f"{size['width']}x{size['height']}": open_table(browser, room, room.owner, size)
             for size in (PHONE, TABLET, TV)}
    for page in pages.values():
        rules = page.locator(f"#table-settings-{room.table_id}")
        rules.locator("summary").click()
        expect(rules.locator(".settings-when")).to_contain_text("A change applies from game 2 on.")
        page.locator(f"#rule-{room.table_id}-jacoby").check()
        stake = page.locator(f"#rule-{room.table_id}-stake_cents")
        stake.fill("3.25")
        correction = page.locator(f"#correct-{room.table_id}-1")
        correction.locator("summary").click()
        correction.locator("input[name=reason]").fill("misread the die")
        stake.scroll_into_view_if_needed()
        stake.focus()
    where = {name: page.locator(f"#rule-{room.table_id}-stake_cents").bounding_box()["y"]
             for name, page in pages.items()}

    room.play({"type": "double", "by": "box", "cubes": ["C"]})
    room.play({"type": "take", "cube": "C"})
    room.play({"type": "result", "winner": "team", "kind": "gammon"})
    for name, page in pages.items():
        table = live(page, room)
        expect(table).to_have_attribute("data-version", f"{room.seq()}-1")
        expect(table.locator('tr[data-game="2"]')).to_contain_text("Team wins gammon")
        rules = page.locator(f"#table-settings-{room.table_id}")
        expect(rules).to_have_attribute("open", "")
        expect(rules.locator(".settings-when")).to_contain_text("A change applies from game 3 on.")
        expect(page.locator(f"#rule-{room.table_id}-stake_cents")).to_have_value("3.25")
        expect(page.locator(f"#rule-{room.table_id}-stake_cents")).to_be_focused()
        expect(page.locator(f"#rule-{room.table_id}-jacoby")).to_be_checked()
        correction = page.locator(f"#correct-{room.table_id}-1")
        expect(correction).to_have_attribute("open", "")
        expect(correction.locator("input[name=reason]")).to_have_value("misread the die")
        # The forms post against the table as it is now.
        assert rules.locator("input[name=seq]").input_value() == str(room.seq()), name
        assert page.locator(f"#rule-{room.table_id}-stake_cents").bounding_box()["y"] == where[name], name
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), name
        screenshot(f"organizer-rules-typing-{name}", page)

    # The organizer's change takes the server's answer: from game 3 on, a stake of 3.25 and Jacoby.
    page = pages["1024x768"]
    page.locator(f"#table-settings-{room.table_id}").get_by_role("button", name="Change from the next game").click()
    expect(page.locator(f"#table-settings-{room.table_id}")).to_be_attached()
    state = room.state()
    assert state.settings_for(3).stake_cents == 325 and state.settings_for(3).jacoby
    assert state.settings_for(2).stake_cents == 100
    for page in pages.values():
        page.context.close()
