"""Deals and proxies in a real browser, several pages at once (docs/rules.md 2.12, issue 14): the
organizer records a proxy and a deal on the tablet; the box doubles the absent member's cube
and the proxy answers it from their own phone while the absent member's phone shows nothing to
answer; the tablet, the phones and the big screen show the deal and the proxy. Screenshots of
the table at 390x844, 1024x768 and 1920x1080, of the proxy's decision and of the big screen
go to test-artifacts/.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from chouette.standings import money
from tests.browser.conftest import ARTIFACTS, no_sideways_scroll, seated_table, signed_in_device, table_state

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1024, "height": 768}
TV = {"width": 1920, "height": 1080}
PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve"]


def shoot(page: Page, name: str, *, full_page: bool = False) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)


@pytest.mark.browser
def test_a_deal_recorded_by_the_organizer_and_a_proxy_answering_on_their_own_phone(
        live_server, browser: Browser):
    app, base = live_server.app, live_server.url
    # Ann is the box, Bob the captain; the box doubled Bob and Eve and both took.
    table = seated_table(app, PLAYERS, [{"type": "double", "by": "box", "cubes": ["Bob", "Eve"]},
                                        {"type": "take", "cube": "Bob"}, {"type": "take", "cube": "Eve"}])
    table_id, night_id = table.id, table.night_id
    url = f"{base}/tables/{table_id}"

    def device(name: str, size: dict[str, int]) -> Page:
        return signed_in_device(browser, base, table.logins[name], size, url=url)

    tablet = device("Olga", TABLET)
    cy, dee = device("Cy", PHONE), device("Dee", PHONE)
    # The phones have no deal or proxy form: the organizer records them.
    expect(cy.locator(".deals-forms")).to_have_count(0)

    # 1. Dee steps away: the organizer hands Dee's decisions to Cy.
    tablet.locator(".deals-forms summary").click()
    for size, label in ((PHONE, "phone"), (TV, "tv"), (TABLET, "tablet")):
        tablet.set_viewport_size(size)
        no_sideways_scroll(tablet)
        tablet.locator(".deals-forms").scroll_into_view_if_needed()
        shoot(tablet, f"deals-forms-{label}")
    proxy_form = tablet.locator(".proxy-form")
    proxy_form.get_by_label("Who steps away").select_option("Dee")
    proxy_form.get_by_label("Who decides instead").select_option("Cy")
    proxy_form.get_by_role("button", name="Hand over the decisions").click()
    dee_row = tablet.locator('.cube-row[data-member="Dee"]')
    expect(dee_row.locator(".proxy-badge")).to_have_text("Cy decides for Dee")
    assert table_state(app, table_id).game.proxies == {"Dee": "Cy"}

    # 2. Eve settles her cube with the box: she pays 1.5 points.
    tablet.locator(".deals-forms summary").click()
    deal_form = tablet.locator(".deal-form")
    deal_form.get_by_label("Cube").select_option("Eve")
    deal_form.get_by_label("Who wins it").select_option("box")
    deal_form.get_by_label("Agreed amount").fill("1,5")
    deal_form.get_by_role("button", name="Record the deal").click()
    eve_row = tablet.locator('.cube-row[data-member="Eve"]')
    expect(eve_row).to_contain_text("Eve: settled: Eve pays the box 1.5 points")
    expect(eve_row).to_have_class(re.compile("cube-dealt"))
    state = table_state(app, table_id)
    assert state.game.cubes["Eve"].status == "dealt"
    assert money(state)[1]["Eve"] == -150 and money(state)[1]["Ann"] == 150

    # A deal beyond the cube's value times a backgammon is refused with the reason.
    tablet.locator(".deals-forms summary").click()
    deal_form.get_by_label("Cube").select_option("Cy")
    deal_form.get_by_label("Who wins it").select_option("box")  # the form has no default
    deal_form.get_by_label("Agreed amount").fill("4")
    deal_form.get_by_role("button", name="Record the deal").click()
    expect(tablet.locator(".live-error")).to_contain_text(
        "Cy's cube is at 1: a deal is at most 3 points")
    assert table_state(app, table_id).game.cubes["Cy"].is_live

    # 3. The box doubles Cy and Dee (on the tablet); Cy answers for both from Cy's phone.
    tablet.reload()
    for name in ("Cy", "Dee"):
        tablet.locator(f'.cube-row[data-member="{name}"]').get_by_label("box doubles").check()
    tablet.get_by_role("button", name="The box doubles the ticked cubes").click()
    expect(tablet.locator('.cube-row[data-member="Dee"]')).to_have_class(re.compile("waiting"))
    cy.reload()
    dee.reload()
    decision = cy.locator(f"#my-decision-{table_id}")
    expect(decision).to_contain_text("Ann doubles you to 2.")
    expect(decision).to_contain_text("Ann doubles Dee to 2: you decide for Dee.")
    # Dee's own phone has nothing to answer: Dee's decisions are Cy's.
    expect(dee.locator(f"#my-decision-{table_id}")).to_have_count(0)
    expect(dee.locator('.cube-row[data-member="Dee"]').get_by_role("button")).to_have_count(0)
    for size, label in ((PHONE, "phone"), (TABLET, "tablet"), (TV, "tv")):
        cy.set_viewport_size(size)
        no_sideways_scroll(cy)
        shoot(cy, f"deals-proxy-decision-{label}")
    cy.set_viewport_size(PHONE)
    decision.locator('li[data-cube="Dee"]').get_by_role("button", name="Take").click()
    expect(decision).not_to_contain_text("you decide for")
    decision.locator('li[data-cube="Cy"]').get_by_role("button", name="Drop").click()
    expect(decision.locator(".decision-cube")).to_have_count(0)  # nothing left to answer
    expect(decision).to_contain_text("Take back my drop")  # Cy's own drop, for a few seconds
    state = table_state(app, table_id)
    assert state.game.cubes["Dee"].value == 2 and state.game.cubes["Dee"].owner == "member"
    assert state.game.cubes["Cy"].status == "dropped"
    # The money stays the absent member's: Cy's drop is Cy's, Dee's cube is Dee's.
    cents = money(state)[1]
    assert cents["Cy"] == -100 and cents["Dee"] == 0

    # 4. Every page shows the deal and the proxy: the tablet, Dee's phone, the big screen.
    tablet.reload()
    dee.reload()
    for page in (tablet, dee):
        expect(page.locator('.cube-row[data-member="Eve"]')).to_contain_text("settled")
        expect(page.locator('.cube-row[data-member="Dee"] .proxy-badge')).to_have_text("Cy decides for Dee")
    for size, label in ((PHONE, "phone"), (TABLET, "tablet"), (TV, "tv")):
        tablet.set_viewport_size(size)
        no_sideways_scroll(tablet)
        tablet.locator(f"#table-cubes-{table_id}").scroll_into_view_if_needed()
        shoot(tablet, f"deals-table-{label}")
    tablet.set_viewport_size(TABLET)
    tv = tablet.context.new_page()
    tv.set_viewport_size(TV)
    tv.goto(f"{base}/display/{night_id}")
    expect(tv.locator(".dt-proxy")).to_have_text("Cy decides instead")
    expect(tv.locator(".seat-line", has_text="Eve").locator(".cube-note")).to_have_text("settled")
    shoot(tv, "deals-big-screen-tv")

    # 5. The game ends: the proxy ends with it; the history keeps both.
    tablet.reload()
    tablet.get_by_role("button", name="Box wins single").click()
    expect(tablet.locator(".deal-line")).to_contain_text("Eve: settled: Eve pays the box 1.5 points")
    expect(tablet.locator(".proxy-line")).to_contain_text("Cy decides for Dee")
    state = table_state(app, table_id)
    assert state.game is None and state.games[-1].proxies == (("Dee", "Cy"),)

    # 6. The score sheet says it too.
    tablet.goto(f"{base}/nights/{night_id}/score-sheet")
    expect(tablet.locator(".sheet-deals .deal-line")).to_have_text(
        "Eve: settled: Eve pays the box 1.5 points")
    expect(tablet.locator(".sheet-deals .proxy-line")).to_have_text("Cy decides for Dee")
    for size, label in ((PHONE, "phone"), (TABLET, "tablet"), (TV, "tv")):
        tablet.set_viewport_size(size)
        tablet.locator(".sheet-deals").scroll_into_view_if_needed()
        shoot(tablet, f"deals-score-sheet-{label}")
