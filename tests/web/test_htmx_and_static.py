"""htmx: page or fragment by HX-Request; htmx 2.0.11 and its extensions vendored, served by the app only."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

import pytest
from flask import Flask

from chouette.web.htmx import is_htmx, render_page

ROOT = Path(__file__).resolve().parents[2]


def test_is_htmx_keys_on_hx_request_not_hx_trigger(app: Flask):
    with app.test_request_context(headers={"HX-Request": "true"}):
        assert is_htmx()
    with app.test_request_context(headers={"HX-Trigger": "some-button"}):
        assert not is_htmx()
    with app.test_request_context(headers={"HX-Request": "true", "HX-Boosted": "true"}):
        assert not is_htmx()  # a boosted link wants the whole page


def test_render_page_chooses_the_fragment_for_htmx_and_varies_on_it(app: Flask):
    with app.test_request_context(headers={"HX-Request": "true"}):
        fragment = render_page("nights/index.html", "nights/_night_list.html", nights=[])
    with app.test_request_context():
        page = render_page("nights/index.html", "nights/_night_list.html", nights=[])
    assert fragment.get_data().lstrip().startswith(b'<section id="night-list"')
    assert b"<html" in page.get_data()
    assert "HX-Request" in fragment.headers["Vary"] and "HX-Request" in page.headers["Vary"]


def test_vendored_htmx_is_2_0_11_with_the_pinned_hash(app: Flask):
    vendored = ROOT / "static" / app.config["HTMX_VENDORED"]
    digest = base64.b64encode(hashlib.sha384(vendored.read_bytes()).digest()).decode()
    assert app.config["HTMX_SRI"] == f"sha384-{digest}"
    assert app.config["HTMX_SRI"] == "sha384-2OatzQy1H+Zd/IIrjr1TcuDGqLXeHhbooAyJY1KdQMKnr4LZ22k31GBLdYKHmVjg"
    assert b'version:"2.0.11"' in vendored.read_bytes()


#: The vendored scripts and their SHA-384 digests (npm pack of the pinned versions).
VENDORED = {
    "vendor/htmx-2.0.11.min.js": "2OatzQy1H+Zd/IIrjr1TcuDGqLXeHhbooAyJY1KdQMKnr4LZ22k31GBLdYKHmVjg",
    "vendor/htmx-ext-sse-2.2.4.min.js": "A986SAtodyH8eg8x8irJnYUk7i9inVQqYigD6qZ9evobksGNIXfeFvDwLSHcp31N",
    "vendor/idiomorph-ext-0.8.0.min.js": "+iBk70O0UWQdSjXQSQ7amSxXCrsWq/6UOtvC9rDo0p7telbTSOyttExq6QCFBzNk",
}


@pytest.mark.parametrize("path", sorted(VENDORED))
def test_vendored_scripts_are_the_pinned_releases(path: str):
    digest = base64.b64encode(hashlib.sha384((ROOT / "static" / path).read_bytes()).digest()).decode()
    assert digest == VENDORED[path]


@pytest.mark.parametrize("page", ["/auth/login", "/display"])
def test_pages_load_every_script_from_the_club_server_only(app, client, page):
    from tests.factories import gen_member

    with app.app_context():
        gen_member("admin")
    html = client.get(page).data.decode()
    sources = re.findall(r'<script[^>]*\ssrc="([^"]+)"', html)
    assert sources, "the page loads its scripts"
    assert all(src.startswith("/static/") for src in sources), sources
    assert {src.removeprefix("/static/") for src in sources} >= set(VENDORED)
    assert "http://" not in html.split("<body")[0] and "https://" not in html.split("<body")[0]
    for src in sources:
        assert client.get(src).status_code == 200


def test_the_favicon_is_served_and_named_by_the_pages(app, client):
    from tests.factories import gen_member

    with app.app_context():
        gen_member("admin")
    assert 'rel="icon" href="/static/favicon.svg"' in client.get("/auth/login").data.decode()
    for url in ("/static/favicon.svg", "/favicon.ico"):
        answer = client.get(url)
        assert answer.status_code == 200 and answer.data.startswith(b"<svg")


def test_every_page_carries_the_csrf_token_for_htmx(app, client):
    from tests.factories import gen_member

    with app.app_context():
        gen_member("admin")
    html = client.get("/auth/login").data.decode()
    assert '<body hx-ext="morph" hx-headers=\'{"X-CSRFToken": "' in html
    assert '<meta name="csrf-token"' in html


def test_see_other_is_a_303_for_browsers_and_hx_redirect_for_htmx(app: Flask):
    from chouette.web.htmx import see_other

    with app.test_request_context():
        plain = see_other("nights.index")
    with app.test_request_context(headers={"HX-Request": "true"}):
        htmx = see_other("nights.index")
    assert (plain.status_code, plain.headers["Location"]) == (303, "/nights/")
    assert (htmx.status_code, htmx.headers["HX-Redirect"]) == (200, "/nights/")
    assert "Location" not in htmx.headers


def test_render_if_changed_answers_304_while_the_version_is_unchanged(app: Flask):
    from chouette.web.htmx import render_if_changed

    versions = {"now": "1"}

    @app.get("/polled")
    def polled():
        return render_if_changed(versions["now"], "nights/index.html", "nights/_night_list.html", nights=[])

    client = app.test_client()
    first = client.get("/polled", headers={"HX-Request": "true"})
    assert first.status_code == 200 and first.headers["ETag"]
    assert first.data.lstrip().startswith(b'<section id="night-list"')
    same = client.get("/polled", headers={"HX-Request": "true", "If-None-Match": first.headers["ETag"]})
    assert same.status_code == 304 and same.data == b""
    page = client.get("/polled", headers={"If-None-Match": first.headers["ETag"]})
    assert page.status_code == 200  # the full page is another representation
    versions["now"] = "2"
    changed = client.get("/polled", headers={"HX-Request": "true", "If-None-Match": first.headers["ETag"]})
    assert changed.status_code == 200 and changed.headers["ETag"] != first.headers["ETag"]
    assert "HX-Request" in changed.headers["Vary"] and changed.headers["Cache-Control"] == "no-cache"


def test_every_page_carries_a_content_security_policy_without_inline_script_or_eval(app, client):
    from tests.factories import gen_member

    with app.app_context():
        gen_member("admin")
    for url in ("/auth/login", "/display"):
        response = client.get(url)
        policy = response.headers["Content-Security-Policy"]
        assert "script-src 'self';" in policy and "unsafe" not in policy
        html = response.get_data(as_text=True)
        assert "<script>" not in html and " onclick=" not in html and "hx-on" not in html
        assert '"allowEval": false' in html  # htmx evaluates nothing either
