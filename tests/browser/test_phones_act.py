"""Players act from their own phones, several pages open at once (one browser context each,
signed in as a different member), against the live server: the partnership accepted by the
player it is offered to, the box doubling from their phone, a member's drop, an extra given by a
dropper, a member doubling the box, the box answering it. After each decision the other pages
are reloaded (push comes separately) and show it. The phone vibrates once per new decision.
Screenshots of the decision block and of the home page at 390x844, 1024x768 and 1920x1080 go
to test-artifacts/.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import ARTIFACTS, no_sideways_scroll, seated_table, signed_in_device, table_state

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1024, "height": 768}
TV = {"width": 1920, "height": 1080}
PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve"]
#: Counts the phone's vibrations (headless chromium has no motor): navigator.vibrate recorded
#: for the tab's whole life, reloads included (a pushed update may bring a decision before a
#: reload does).
VIBRATE_SPY = """Object.defineProperty(navigator, "vibrate", {configurable: true, value: function (pattern) {
    sessionStorage.setItem("spy-vibrations", String(Number(sessionStorage.getItem("spy-vibrations") || 0) + 1));
    return true; }});"""
VIBRATIONS = 'Number(sessionStorage.getItem("spy-vibrations") || 0)'


def wait_for_vibrations(page: Page, count: int, seconds: float = 10.0) -> None:
    """Poll the spy until the page has vibrated `count` times.

    Not `page.wait_for_function`: its polling evaluates a string inside the page, which the
    app's Content Security Policy (no 'unsafe-eval') refuses whenever the first check fails.
    """
    deadline = time.monotonic() + seconds
    while page.evaluate(VIBRATIONS) != count:
        assert time.monotonic() < deadline, f"{page.evaluate(VIBRATIONS)} vibrations, not {count}"
        page.wait_for_timeout(50)



def shoot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=False)


@pytest.mark.browser
def test_players_make_their_own_decisions_from_their_phones(live_server, browser: Browser):
    app, base = live_server.app, live_server.url
    table = seated_table(app, PLAYERS, [], extras=True, partner_min_players=3)
    table_id = table.id
    url = f"{base}/tables/{table_id}"

    def device(name: str, size: dict[str, int]) -> Page:
        page = signed_in_device(browser, base, table.logins[name], size, init_script=VIBRATE_SPY)
        expect(page.get_by_role("heading", name=f"Hello, {name}")).to_be_visible()
        return page

    tablet = device("Olga", TABLET)
    tablet.goto(url)
    phones = {name: device(name, PHONE) for name in ("Ann", "Bob", "Cy", "Eve")}

    def decision(name: str):
        return phones[name].locator(f"#my-decision-{table_id}")

    def reload_all(*names: str) -> None:
        tablet.reload()
        for name in names:
            phones[name].reload()

    # Bob's home says where they sit and that a decision waits: the partnership is theirs to answer.
    bob = phones["Bob"]
    expect(bob.locator(".my-table")).to_contain_text("Upstairs")
    expect(bob.locator(".my-table .my-seat")).to_contain_text("Captain")
    expect(bob.get_by_role("link", name="A decision waits for you")).to_be_visible()
    expect(phones["Cy"].get_by_role("link", name="A decision waits for you")).to_have_count(0)
    for size, label in ((PHONE, "phone"), (TABLET, "tablet"), (TV, "tv")):
        bob.set_viewport_size(size)
        no_sideways_scroll(bob)
        shoot(bob, f"phones-act-home-{label}")
    bob.set_viewport_size(PHONE)

    # 1. The partnership is accepted from Bob's phone (the one it is offered to).
    bob.get_by_role("link", name="A decision waits for you").click()
    expect(decision("Bob")).to_contain_text("You are offered the partnership with the box, Ann.")
    wait_for_vibrations(bob, 1)  # the page's script runs once the decision is drawn
    for size, label in ((PHONE, "phone"), (TABLET, "tablet"), (TV, "tv")):
        bob.set_viewport_size(size)
        no_sideways_scroll(bob)
        shoot(bob, f"phones-act-decision-{label}")
    bob.set_viewport_size(PHONE)
    bob.reload()  # the same decision does not vibrate twice
    expect(decision("Bob")).to_be_visible()
    assert bob.evaluate(VIBRATIONS) == 1
    for name in ("Ann", "Cy", "Eve"):
        phones[name].goto(url)
        expect(decision(name)).to_have_count(0)
        expect(phones[name].get_by_role("button", name="Accept")).to_have_count(0)
    decision("Bob").get_by_role("button", name="Accept").click()
    expect(decision("Bob")).to_have_count(0)
    assert table_state(app, table_id).partner == "Bob"
    reload_all("Ann", "Cy", "Eve")
    for page in (tablet, phones["Ann"], phones["Eve"]):
        expect(page.locator(".seat-partner")).to_contain_text("Bob")
    expect(phones["Cy"].locator(".seat-captain.is-me")).to_contain_text("Cy")

    # 2. The box doubles every member from their phone (their own decision: tick the cubes).
    ann = phones["Ann"]
    for name in ("Cy", "Dee", "Eve"):
        ann.locator(f'.cube-row[data-member="{name}"]').get_by_label("box doubles").check()
    ann.get_by_role("button", name="The box doubles the ticked cubes").click()
    expect(ann.locator('.cube-row[data-member="Eve"]')).to_have_class(re.compile("waiting"))
    # Cy's page is brought up to date by htmx (no reload): the decision appears, and vibrates.
    cy = phones["Cy"]
    cy.evaluate("""(id) => htmx.ajax("GET", location.pathname + "/live",
                                     {target: "#table-live-" + id, swap: "outerHTML"})""", table_id)
    expect(decision("Cy")).to_contain_text("Ann doubles you to 2.")
    wait_for_vibrations(cy, 1)
    decision("Cy").get_by_role("button", name="Drop").click()
    # Nothing left to answer (Cy's own drop may be taken back for a few seconds: its own card).
    expect(decision("Cy").locator(".decision-cube")).to_have_count(0)
    # Dee has no phone here: the organizer answers for Dee on the tablet.
    tablet.reload()
    tablet.locator('.cube-row[data-member="Dee"]').get_by_role("button", name="Drop").click()
    expect(tablet.locator('.cube-row[data-member="Dee"]')).to_have_class(re.compile("cube-dropped"))
    eve = phones["Eve"]
    eve.reload()
    expect(decision("Eve")).to_contain_text("Ann doubles you to 2.")
    decision("Eve").get_by_role("button", name="Take").click()
    expect(decision("Eve")).to_have_count(0)

    # 3. Eve took alone: Cy gives her an extra cube from Cy's phone.
    cy.reload()
    expect(decision("Cy")).to_contain_text("Eve took alone: you may give Eve an extra cube")
    wait_for_vibrations(cy, 2)  # a new decision: it vibrates again
    reload_all("Eve")
    expect(tablet.get_by_role("button", name="Cy gives Eve an extra cube")).to_be_visible()
    expect(eve.get_by_role("button", name=re.compile("extra cube"))).to_have_count(0)
    decision("Cy").get_by_role("button", name="Give Eve an extra cube").click()
    expect(decision("Cy")).to_have_count(0)
    assert [(e.giver, e.taker) for e in table_state(app, table_id).game.extras] == [("Cy", "Eve")]
    reload_all("Ann", "Eve")
    for page in (tablet, ann, eve):
        expect(page.locator('.extra-cube[data-extra="Cy"]')).to_contain_text("Extra cube 2 from Cy to Eve")

    # 4. Eve doubles the box from her phone; the box answers it from theirs.
    eve.locator('.cube-row[data-member="Eve"]').get_by_role("button", name="Double").click()
    expect(eve.locator('.cube-row[data-member="Eve"]')).to_have_class(re.compile("waiting"))
    assert table_state(app, table_id).game.cubes["Eve"].to_answer == "box"
    reload_all("Ann", "Cy")
    expect(tablet.locator('.cube-row[data-member="Eve"]')).to_have_class(re.compile("waiting"))
    expect(cy.locator('.cube-row[data-member="Eve"]').get_by_role("button")).to_have_count(0)
    expect(decision("Ann")).to_contain_text("Eve doubles you to 4.")
    wait_for_vibrations(ann, 1)
    ann.set_viewport_size(TABLET)
    shoot(ann, "phones-act-box-decision-tablet")
    ann.set_viewport_size(PHONE)
    shoot(ann, "phones-act-box-decision-phone")
    decision("Ann").get_by_role("button", name="Take").click()
    expect(decision("Ann")).to_have_count(0)
    assert table_state(app, table_id).game.cubes["Eve"].value == 4
    reload_all("Cy", "Eve")
    for page in (tablet, cy, eve):
        expect(page.locator('.cube-row[data-member="Eve"] .cube-value')).to_have_text("4")
        expect(page.locator('.cube-row[data-member="Eve"]')).not_to_have_class(re.compile("waiting"))
