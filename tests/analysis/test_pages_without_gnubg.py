"""Without gnubg and nothing analysed, the pages say the analysis is not available."""

from __future__ import annotations

from tests.factories import gen_member


def test_the_player_page_says_the_analysis_is_not_available(app, client, auth, monkeypatch, tmp_path):
    monkeypatch.setenv("GNUBG", str(tmp_path / "no-gnubg"))
    with app.app_context():
        gen_member("player", username="bob", name="Bob")
    auth.login("bob")
    page = client.get("/analysis/players/Bob").get_data(as_text=True)
    assert "The analysis is not available" in page
    assert client.get("/").status_code == 200  # the app works as before


def test_the_page_says_it_in_italian_too(app, client, auth, monkeypatch, tmp_path):
    monkeypatch.setenv("GNUBG", str(tmp_path / "no-gnubg"))
    with app.app_context():
        gen_member("player", username="bob", name="Bob")
    auth.login("bob")
    page = client.get("/analysis/players/Bob", headers={"Accept-Language": "it"}).get_data(as_text=True)
    assert "L'analisi non è disponibile" in page or "L&#39;analisi non è disponibile" in page
    assert "Analisi di GNU Backgammon" in page
