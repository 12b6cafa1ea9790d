"""On a phone (390x844) the top bar's links are tap targets of at least 44 px; a news flash
leaves after a while, a refusal stays (issue 25)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.factories import PASSWORD, gen_member

pytestmark = pytest.mark.browser


def test_the_phone_navigation_links_are_44px_tall(live_server, page: Page, screenshot):
    with live_server.app.app_context():
        gen_member("organizer", username="org", name="Olga")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/auth/login")
    page.fill("input[name=username]", "org")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    heights = page.eval_on_selector_all(
        ".topbar nav a, .topbar nav button",
        "els => els.map(e => [e.textContent.trim(), e.getBoundingClientRect().height])")
    assert len(heights) >= 6
    assert all(height >= 44 for _text, height in heights), heights
    screenshot("phone-navigation")


def test_a_news_flash_leaves_after_a_while_and_a_refusal_stays(live_server, page: Page):
    with live_server.app.app_context():
        gen_member("organizer", username="org2", name="Otto")
    page.goto(f"{live_server.url}/auth/login")
    page.fill("input[name=username]", "org2")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    assert page.locator(".flash").count() >= 1  # "Welcome, Otto."
    page.wait_for_selector(".flash", state="detached", timeout=12_000)
    page.evaluate("""() => { const p = document.createElement('p'); p.className = 'flash flash-error';
        p.textContent = 'refused'; document.getElementById('flash').appendChild(p);
        document.dispatchEvent(new Event('htmx:afterSettle')); }""")
    page.wait_for_timeout(9_000)
    assert page.locator(".flash-error").count() == 1
