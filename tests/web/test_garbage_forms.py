"""Garbage through the correction form and the import page: a 422 with the reason, nothing
written, never a 500 (the rules check every event's shape: chouette/table/shapes.py)."""

from __future__ import annotations

import json

import pytest

from tests.web.test_exports import _night_counts, _upload, night  # noqa: F401 (a fixture)
from tests.web.test_play_pages import Table, post, sign_in

WINNER = "must be a winner (box or team) and a kind"
ANSWER = "its value before the double, and the right answer"


@pytest.mark.parametrize(("fix", "said"), [
    ("box-nonsense", WINNER), ("team-", WINNER), ("-single", WINNER), ("nobody-gammon", WINNER),
    ("[]", WINNER), ("answer:x:take:C", "Choose what to correct."), ("answer:1:beaver:C", ANSWER),
])
def test_a_correction_with_a_nonsense_result_is_refused_in_place(app, client, fix, said):
    table = Table(app)
    table.seat("ABCD")
    table.play({"type": "result", "winner": "team", "kind": "single"})
    sign_in(client, table.owner)
    before = table.log()
    response = post(client, table, "correct", {"game": "1", "fix": fix, "reason": "typo"},
                    htmx=True)
    assert response.status_code == 422
    assert said in response.get_data(as_text=True)
    assert table.log() == before


GARBAGE = [
    ({"type": ["a", "b"]}, "an event needs a type"),
    ({"type": "result", "winner": "team", "kind": []}, "result: &#34;kind&#34; must be a text"),
    ({"type": "correct", "game": 1, "reason": "x", "result": {"winner": "box", "kind": "nonsense"}},
     "correct: &#34;result&#34; must be a winner"),
    ({"type": "roll", "dice": [6, None, {"a": 1}]}, "roll: &#34;dice&#34; must be two dice"),
    ({"type": "double", "by": "box", "cubes": [1.5]}, "double: &#34;cubes&#34; must be a list of names"),
]


@pytest.mark.parametrize(("event", "said"), GARBAGE)
def test_an_import_with_a_garbage_event_is_refused_and_writes_nothing(
        app, client, night, login_as, event, said):  # noqa: F811
    login_as("organizer")
    export = json.loads(client.get(f"/nights/{night['night_id']}/night.json").data)
    export["tables"][0]["events"].insert(5, event)
    before = _night_counts(app)
    response = _upload(client, json.dumps(export).encode())
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "event 6" in html and said in html, html[-3000:]
    assert _night_counts(app) == before
