"""Joining the club from a link, two pages at once against the live server (issue 25): the
admin's tablet makes an invitation and shows its QR and link; a newcomer's phone (390x844)
opens the link, creates an account and is signed in as a player; the admin's list then counts
the use, and the used-up link is a clear page. Then the admin makes a one-time password link
for the newcomer, which the phone uses once. Screenshots at 390x844, 1024x768 and 1920x1080 go
to test-artifacts/."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import ARTIFACTS, OFF_SITE
from tests.factories import PASSWORD, gen_member

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1024, "height": 768}
TV = {"width": 1920, "height": 1080}
SIZES = ((PHONE, "phone"), (TABLET, "tablet"), (TV, "tv"))


def _device(browser: Browser, size: dict[str, int]) -> Page:
    context = browser.new_context(viewport=size)
    context.route(OFF_SITE, lambda route: route.abort())
    context.set_default_timeout(10_000)
    return context.new_page()


def _shoot_sizes(page: Page, name: str) -> None:
    """The page at the three sizes, with no sideways scroll; back to its own size after."""
    ARTIFACTS.mkdir(exist_ok=True)
    own = page.viewport_size
    for size, label in SIZES:
        page.set_viewport_size(size)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), (name, label)
        page.screenshot(path=str(ARTIFACTS / f"{name}-{label}.png"), full_page=True)
    if own:
        page.set_viewport_size(own)


@pytest.mark.browser
def test_a_newcomer_joins_from_the_admins_invitation_on_a_phone(live_server, browser: Browser):
    app, base = live_server.app, live_server.url
    with app.app_context():
        admin = gen_member("admin", name="Ada")

    tablet = _device(browser, TABLET)
    tablet.goto(f"{base}/auth/login")
    tablet.get_by_label("Username").fill(admin.username)
    tablet.get_by_label("Password").fill(PASSWORD)
    tablet.get_by_role("button", name="Sign in").click()
    tablet.goto(f"{base}/account")
    tablet.get_by_role("link", name="Invitations to join the club").click()
    expect(tablet.get_by_role("heading", name="Invitations")).to_be_visible()
    tablet.get_by_label("Label (who or which night it is for)").fill("Friday night")
    tablet.get_by_label("Valid for (hours)").fill("12")
    tablet.get_by_label("How many people may join with it").fill("1")
    tablet.get_by_role("button", name="Make the invitation").click()
    shown = tablet.locator("#invitation-shown")
    expect(shown.locator("svg.qr")).to_be_visible()
    link = shown.locator("a.link-url").inner_text()
    assert link.startswith(f"{base}/join/")
    _shoot_sizes(tablet, "join-invitation-shown")

    phone = _device(browser, PHONE)
    phone.goto(link)
    expect(phone.get_by_role("heading", name="Join the club")).to_be_visible()
    _shoot_sizes(phone, "join-form")
    # A taken username: refused, what was typed stays.
    phone.get_by_label("Your name").fill("Nina Neri")
    phone.get_by_label("Username").fill(admin.username)
    phone.get_by_label("Password", exact=True).fill("nina-password-1")
    phone.get_by_label("Password again").fill("nina-password-1")
    phone.get_by_role("button", name="Join").click()
    expect(phone.locator(".form-errors")).to_contain_text(f"The username {admin.username} is taken.")
    expect(phone.get_by_label("Your name")).to_have_value("Nina Neri")
    _shoot_sizes(phone, "join-refused-username")
    phone.get_by_label("Username").fill("nina")
    phone.get_by_label("Password", exact=True).fill("nina-password-1")
    phone.get_by_label("Password again").fill("nina-password-1")
    phone.get_by_role("button", name="Join").click()
    expect(phone.get_by_text("Welcome to the club, Nina Neri.")).to_be_visible()
    expect(phone.get_by_role("heading", name="Hello, Nina Neri")).to_be_visible()

    tablet.goto(f"{base}/admin/invitations")
    row = tablet.locator("#invitation-list tr", has_text="Friday night")
    expect(row).to_contain_text("0 / 1")
    expect(row).to_contain_text("used up")
    _shoot_sizes(tablet, "join-invitations-list")

    late = _device(browser, PHONE)
    late.goto(link)
    expect(late.get_by_role("heading", name="This link does not work")).to_be_visible()
    expect(late.locator("#link-refused")).to_contain_text("used as many times as it allows")
    _shoot_sizes(late, "join-link-refused")

    # The pages that lead here.
    tablet.goto(f"{base}/account")
    _shoot_sizes(tablet, "join-account-links")
    tablet.goto(f"{base}/admin/members")
    _shoot_sizes(tablet, "join-admin-members")
    tablet.locator("tr", has_text="nina").get_by_role("link", name="Edit").click()
    expect(tablet.get_by_role("button", name="Make a one-time password link")).to_be_visible()
    _shoot_sizes(tablet, "join-member-edit")

    # The newcomer forgot the password: the admin hands over a one-time link.
    tablet.goto(f"{base}/members/password-links")
    _shoot_sizes(tablet, "password-links-list")
    tablet.locator("tr", has_text="nina").get_by_role("button", name="Make a link").click()
    reset_link = tablet.locator("#link-shown a.link-url").inner_text()
    _shoot_sizes(tablet, "password-link-shown")
    other = _device(browser, PHONE)
    other.goto(reset_link)
    expect(other.get_by_role("heading", name="Set a new password")).to_be_visible()
    _shoot_sizes(other, "password-link-form")
    other.get_by_label("New password", exact=True).fill("nina-new-password")
    other.get_by_label("New password again").fill("nina-new-password")
    other.get_by_role("button", name="Set the password").click()
    expect(other.get_by_text("Your new password is set, Nina Neri.")).to_be_visible()
    phone.reload()  # the phone's session ended with the new password
    expect(phone.get_by_role("heading", name="Hello, Nina Neri")).to_have_count(0)
    other.goto(reset_link)
    expect(other.locator("#link-refused")).to_contain_text("This link was used already")

    # Nina changes her own password from her account page.
    other.goto(f"{base}/account")
    other.get_by_role("link", name="Change your password").click()
    _shoot_sizes(other, "password-change")
    other.get_by_label("Current password").fill("nina-new-password")
    other.get_by_label("New password", exact=True).fill("nina-third-password")
    other.get_by_label("New password again").fill("nina-third-password")
    other.get_by_role("button", name="Change the password").click()
    expect(other.get_by_text("Your password is changed; your other devices are signed out.")).to_be_visible()
