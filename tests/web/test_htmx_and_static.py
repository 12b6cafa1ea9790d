"""htmx: page or fragment by HX-Request; htmx 2.0.11 from the CDN with SRI and its vendored copy."""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path

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


def test_pages_load_htmx_from_the_cdn_with_sri_and_fall_back_to_the_vendored_copy(app, client):
    from tests.factories import gen_member

    with app.app_context():
        gen_member("admin")
    html = client.get("/auth/login").data.decode()
    assert f'src="{app.config["HTMX_CDN_URL"]}" integrity="{app.config["HTMX_SRI"]}" crossorigin="anonymous"' in html
    assert "window.htmx || document.write" in html and "/static/vendor/htmx-2.0.11.min.js" in html
    assert client.get("/static/vendor/htmx-2.0.11.min.js").status_code == 200


def test_every_page_carries_the_csrf_token_for_htmx(app, client):
    from tests.factories import gen_member

    with app.app_context():
        gen_member("admin")
    html = client.get("/auth/login").data.decode()
    assert '<body hx-headers=\'{"X-CSRFToken": "' in html
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
