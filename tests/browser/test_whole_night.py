"""A whole club night played through the pages only, several devices at once (issue 25's proof):
the admin's tablet, the organizer's tablet (1024x768), two players' phones (390x844) and the
TV of the room (/display?tables=1, 1920x1080).

- A newcomer joins the club from the admin's invitation link on her phone, then seats herself
  at the table from its QR code's address (tables.sit).
- The organizer types the others at "Join the table": a typo asks "Did you mean Ann Archer?"
  (item 4), "bob muller" seats the member Bob Müller, a new name seats a guest, marked.
- The box doubles three members: the two on phones tap Take at the same moment, from pages at
  the same seq, and both answers are taken (item 2); the organizer records the third's drop.
- Four games on the score sheet; a game two games back is corrected (team gammon to box single)
  and the later seats and amounts follow (item 5).
- The TV of the room shows that table only, its seats, guests, waiting cubes and each player's
  points and money, pushed, the money column whole (item 7).
- At the end the ledger and the settle-up show every player's money to the cent, against
  figures this test computes from the rules (docs/rules.md 2.3, 2.5, 2.10, 2.11), not typed in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import parse_qs

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from tests.browser.test_live_room import PHONE, TABLET, TV, device, sign_in
from tests.factories import gen_member

pytestmark = pytest.mark.browser

STAKE_CENTS = 150  # typed as "1.50" in the new table's form


# --------------------------------------------------------------------------- the rules, apart


@dataclass
class Chouette:
    """A multi-cube chouette kept by the rules alone (docs/rules.md 2.3, 2.5, 2.10): the seats
    (box, captain, then the line) and each player's points."""

    seats: list[str]
    points: dict[str, int] = field(default_factory=dict)

    def game(self, winner: str, kind: str, cubes: dict[str, int] | None = None,
             dropped: dict[str, int] | None = None) -> None:
        """A game: every member's cube (1 unless in ``cubes``); ``dropped`` members gave up
        their cube at that value; the rest is settled at value x 1/2/3 (2.10). Then the seats
        rotate on the game against the captain (2.3)."""
        box, captain, *line = self.seats
        multiple = {"single": 1, "gammon": 2, "backgammon": 3}[kind]
        for member in (captain, *line):
            if dropped and member in dropped:
                won = -dropped[member]
            else:
                value = (cubes or {}).get(member, 1) * multiple
                won = value if winner == "team" else -value
            self.points[member] = self.points.get(member, 0) + won
            self.points[box] = self.points.get(box, 0) - won
        if winner == "team":
            self.seats = [captain, *line, box]
        else:
            self.seats = [box, *line, captain]

    def cents(self) -> dict[str, int]:
        return {name: points * STAKE_CENTS for name, points in self.points.items()}


def cents_of(text: str) -> int:
    """"+€1.50", "-€6.00", "€0.00" -> cents."""
    text = text.replace("\u2212", "-").strip()
    digits = re.sub(r"[^0-9]", "", text)
    return -int(digits) if text.startswith("-") else int(digits)


# --------------------------------------------------------------------------- the pages


def table_live(page: Page, table_id: int):
    return page.locator(f"#table-live-{table_id}")


def act(page: Page, table_id: int, target) -> None:
    """Click and wait until the live table has taken the change."""
    before = table_live(page, table_id).get_attribute("data-seq")
    target.click()
    expect(table_live(page, table_id)).not_to_have_attribute("data-seq", before or "")


def hold(who: str, posted: dict[str, str], held: list[Route]):
    """A route handler that notes the seq an answer carries and holds the request."""

    def handler(route: Route) -> None:
        posted[who] = parse_qs(route.request.post_data or "")["seq"][0]
        held.append(route)

    return handler


def test_a_whole_club_night_on_several_devices(browser: Browser, live_server):
    base = live_server.url
    with live_server.app.app_context():
        ada = gen_member("admin", name="Ada")
        olga = gen_member("organizer", name="Olga")
        gen_member("player", name="Ann Archer", username="ann")
        bob = gen_member("player", name="Bob Müller", username="bob")

    # The admin makes an invitation; the newcomer joins the club from it on her phone.
    admin = device(browser, TABLET).new_page()
    sign_in(admin, base, ada)
    admin.goto(f"{base}/admin/invitations")
    admin.get_by_label("Label (who or which night it is for)").fill("Friday night")
    admin.get_by_label("Valid for (hours)").fill("12")
    admin.get_by_label("How many people may join with it").fill("1")
    admin.get_by_role("button", name="Make the invitation").click()
    invitation = admin.locator("#invitation-shown a.link-url").inner_text()
    nina = device(browser, PHONE).new_page()
    nina.goto(invitation)
    nina.get_by_label("Your name").fill("Nina Neri")
    nina.get_by_label("Username").fill("nina")
    nina.get_by_label("Password", exact=True).fill("nina-password-1")
    nina.get_by_label("Password again").fill("nina-password-1")
    nina.get_by_role("button", name="Join").click()
    expect(nina.get_by_role("heading", name="Hello, Nina Neri")).to_be_visible()
    admin.context.close()

    # The organizer opens the night and two tables from the tablet.
    tablet = device(browser, TABLET).new_page()
    sign_in(tablet, base, olga)
    tablet.goto(f"{base}/nights/new")
    tablet.get_by_label("Name").fill("Friday chouette")
    tablet.get_by_role("button", name="Open the night").click()
    night_url = tablet.url
    ids = {}
    for name in ("Window", "Corner"):
        tablet.goto(night_url)
        tablet.get_by_role("link", name="New table").click()
        tablet.get_by_label("Table name").fill(name)
        if name == "Window":
            tablet.get_by_label("Stake per point").fill("1.50")
        tablet.get_by_role("button", name="Create the table").click()
        expect(tablet.get_by_role("heading", name=name, exact=True)).to_be_visible()
        ids[name] = int(re.search(r"/tables/(\d+)", tablet.url).group(1))
    table_id = ids["Window"]
    tablet.goto(f"{base}/tables/{table_id}")
    expect(tablet.locator(".live-push")).to_have_attribute("data-push", "open")

    # The TV of the room shows table 1 only (item 7), kept current by push.
    tv = device(browser, TV).new_page()
    tv.goto(f"{base}/display?tables=1")
    expect(tv.locator(".display-table")).to_have_count(1)
    expect(tv.locator(f"#display-table-{ids['Corner']}")).to_have_count(0)
    screen = tv.locator(f"#display-table-{table_id}")
    expect(screen).to_contain_text("Waiting for players")

    # Join the table (item 4): a typo asks, a name but for its accents is the member, a new
    # name is a guest, marked on the tablet and the TV.
    join = tablet.locator(f"#table-join-{table_id}")
    seats = tablet.locator(f"#table-seats-{table_id}")
    join.get_by_label("Name (a member or a guest)").fill("ann archr")
    join.get_by_role("button", name="Sit down").click()
    expect(join.locator(".join-question")).to_contain_text("Did you mean Ann Archer?")
    expect(seats).not_to_contain_text("ann archr")
    act(tablet, table_id, join.get_by_role("button", name="Seat the member Ann Archer"))
    for typed in ("bob muller", "Zed Quill"):
        join.get_by_label("Name (a member or a guest)").fill(typed)
        act(tablet, table_id, join.get_by_role("button", name="Sit down"))
    expect(seats).to_contain_text("Bob Müller")
    expect(seats.locator(".seat", has_text="Zed Quill").locator(".guest-badge")).to_have_text("guest")
    expect(seats.locator(".seat", has_text="Bob Müller").locator(".guest-badge")).to_have_count(0)

    # Nina seats herself from the table's QR code's address; Bob opens the table on their phone.
    qr_address = tablet.locator(f"#table-qr-{table_id} figcaption small").inner_text()
    assert qr_address == f"{base}/tables/{table_id}"
    nina.goto(qr_address)
    nina.get_by_role("button", name="Sit down").click()
    expect(nina.locator(".flash")).to_contain_text("You sit at the table.")
    expect(seats).to_contain_text("Nina Neri")  # pushed to the tablet
    bob_phone = device(browser, PHONE).new_page()
    sign_in(bob_phone, base, bob)
    bob_phone.goto(qr_address)
    join.get_by_label("Name (a member or a guest)").fill("Cy")
    act(tablet, table_id, join.get_by_role("button", name="Sit down"))

    # The order, recorded as it was rolled at the table: box first.
    night = Chouette(["Ann Archer", "Zed Quill", "Bob Müller", "Nina Neri", "Cy"])
    order = tablet.locator(f"#table-order-{table_id}")
    order.get_by_text("Record an order (box first)").click()
    order.get_by_label("One name a line, the box first").fill("\n".join(night.seats))
    act(tablet, table_id, order.get_by_role("button", name="Record this order"))
    expect(tablet.locator(".seat-box")).to_contain_text("Ann Archer")
    expect(screen.locator("tr", has_text="Zed Quill").locator(".dt-guest")).to_have_text("guest")
    expect(screen.locator("tr.seat-box")).to_contain_text("Ann Archer")

    # Game 1: the box doubles Bob, Nina and Cy.
    doubled = ["Bob Müller", "Nina Neri", "Cy"]
    for name in doubled:
        tablet.locator(f'.cube-row[data-member="{name}"]').get_by_label("box doubles").check()
    act(tablet, table_id, tablet.get_by_role("button", name="The box doubles the ticked cubes"))
    for name in doubled:
        expect(screen.locator("tr", has_text=name).locator(".cube-note")).to_have_text("to answer")

    # Item 2: Bob and Nina tap Take at the same moment, from pages drawn at the same seq. Their
    # answers are held on the way until both are sent, so neither page heard of the other's.
    phones = {"Bob Müller": bob_phone, "Nina Neri": nina}
    held: list[Route] = []
    posted: dict[str, str] = {}
    for name, phone in phones.items():
        expect(phone.locator(f"#my-decision-{table_id}")).to_contain_text("Ann Archer doubles you to 2.")
        phone.route(re.compile(r".*/answer$"), hold(name, posted, held))
    for phone in phones.values():
        phone.locator(f"#my-decision-{table_id}").get_by_role("button", name="Take").click()
    for phone in phones.values():
        phone.wait_for_timeout(50)
    deadline = 100
    while len(held) < 2 and deadline:
        bob_phone.wait_for_timeout(50)
        deadline -= 1
    assert len(held) == 2 and posted["Bob Müller"] == posted["Nina Neri"], posted
    for route in held:
        route.continue_()
    for name, phone in phones.items():
        expect(phone.locator(f"#my-decision-{table_id} .decision-cube")).to_have_count(0)
        expect(phone.get_by_text("The table changed while you were deciding")).to_have_count(0)
        expect(tablet.locator(f'.cube-row[data-member="{name}"]')).not_to_have_class(re.compile("waiting"))
        expect(screen.locator("tr", has_text=name).locator(".cube-face")).to_have_text("2")
        phone.unroute(re.compile(r".*/answer$"))
    act(tablet, table_id, tablet.locator('.cube-row[data-member="Cy"]').get_by_role("button", name="Drop"))
    act(tablet, table_id, tablet.get_by_role("button", name="Team wins single"))
    night.game("team", "single", cubes={"Bob Müller": 2, "Nina Neri": 2}, dropped={"Cy": 1})

    # Games 2 to 3 on the score sheet, from the tablet.
    act(tablet, table_id, tablet.get_by_role("button", name="Team wins gammon"))
    first_seats = list(night.seats)
    act(tablet, table_id, tablet.get_by_role("button", name="Box wins single"))

    # Item 5: game 2 was a box single, not a team gammon: corrected two games back; the later
    # seats and amounts follow.
    night = Chouette(["Ann Archer", "Zed Quill", "Bob Müller", "Nina Neri", "Cy"])
    night.game("team", "single", cubes={"Bob Müller": 2, "Nina Neri": 2}, dropped={"Cy": 1})
    assert night.seats == first_seats
    night.game("box", "single")
    night.game("box", "single")
    fix = tablet.locator(f"#correct-{table_id}-2")
    fix.locator("summary").click()
    fix.locator("select[name=fix]").select_option("box-single")
    fix.locator("input[name=reason]").fill("the wrong button")
    act(tablet, table_id, fix.get_by_role("button", name="Record the correction"))
    expect(tablet.locator(f"#table-history-{table_id} tr[data-game='2']")).to_contain_text(
        "Corrected by Olga: the wrong button")
    expect(tablet.locator(".seat-box")).to_contain_text(night.seats[0])
    expect(tablet.locator(".seat-captain")).to_contain_text(night.seats[1])
    expect(screen.locator("tr.seat-box")).to_contain_text(night.seats[0])

    # Game 4, then the night's figures, everywhere.
    act(tablet, table_id, tablet.get_by_role("button", name="Team wins gammon"))
    night.game("team", "gammon")
    expected = night.cents()
    assert sum(expected.values()) == 0 and len(expected) == 5

    # The TV, pushed: each player's points and money; the money column whole.
    for name, points in night.points.items():
        row = screen.locator("tr", has_text=name)
        sign = "[-\u2212]" if points < 0 else "[+]?"
        expect(row.locator("td.dt-points")).to_have_text(re.compile(rf"^{sign}{abs(points)}$"))
        assert cents_of(row.locator("td.dt-money").inner_text()) == expected[name], name
    header = screen.locator("th.dt-money")
    expect(header).to_have_text("EUR")
    assert header.evaluate("(th) => th.scrollWidth <= th.clientWidth")  # whole, not "EUI"

    # The ledger and the settle-up, to the cent.
    tablet.goto(f"{night_url}/ledger")
    for name, cents in expected.items():
        line = tablet.locator(f'details.player-ledger[data-player="{name}"] summary .num').last
        assert cents_of(line.inner_text()) == cents, name
    expect(tablet.locator(".ledger-row.total")).to_contain_text("€0.00")
    tablet.goto(f"{night_url}/settle")
    for name, cents in expected.items():
        cell = tablet.locator(f'#settle-up tr[data-player="{name}"] td.num').first
        assert cents_of(cell.inner_text()) == cents, name
    transfers = tablet.locator("#night-transfers li.transfer")
    paid = dict.fromkeys(expected, 0)
    for index in range(transfers.count()):
        transfer = transfers.nth(index)
        cents = cents_of(transfer.locator(".sum").inner_text())
        paid[transfer.get_attribute("data-payer")] -= cents
        paid[transfer.get_attribute("data-payee")] += cents
    assert paid == expected  # every balance settled, to the cent
    assert 0 < transfers.count() <= len(expected) - 1
    for page in (tablet, tv, nina, bob_phone):
        page.context.close()
