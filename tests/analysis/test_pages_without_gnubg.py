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


def test_an_answer_is_drawn_with_the_doubler_on_roll(app):
    from chouette.engine import Position
    from chouette.services.analysis import JudgedGame
    from chouette.web.analysis import _drawn

    position = Position.initial()
    answer = {"kind": "answer", "side": "team", "player": "Bob", "position_id": position.id, "dice": None,
              "value": 1, "owner": "centre", "jacoby": False, "played": "take", "best": "drop", "error": 0.2}
    labels = {"box": "Box", "team": "Team"}

    def drawn(decision):
        with app.test_request_context():
            return _drawn(JudgedGame("Table 1", 1, 1, [decision]), decision, 1, labels)

    found = drawn(answer)
    assert "Box on roll" in str(found["board"]["board_svg"])
    assert found["xgid"].endswith(":0:0:1:D:0:0:0:0:10")
    # An analysis stored before the cubes were kept: the decision's own cube is drawn.
    assert 'title="Bob: cube 1, in the middle"' in str(found["board"]["cube_list"])
    # The first doubler's answer to a beaver: the doubler (the one answering) is on roll.
    found = drawn({**answer, "side": "box", "player": "Ann", "level": 1, "played": "take"})
    assert "Box on roll" in str(found["board"]["board_svg"])
    play = {**answer, "kind": "move", "dice": [3, 1], "side": "team"}
    found = drawn(play)
    assert "Team on roll" in str(found["board"]["board_svg"]) and ":1:31:" in found["xgid"]
