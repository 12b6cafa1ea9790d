"""The cubes on the board's rail (issue 25): every member's cube label says the whole name, in
type a reader can read at 390x844 and at 1920x1080, with several cubes at once (owned by the
box, by the member, in the middle, doubled and waiting, dropped), while another device changes
the table. Screenshots go to /tmp/cubes."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.test_live_room import PHONE, TV, Room, open_table

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/cubes")
SIZES = {"390x844": PHONE, "1024x768": {"width": 1024, "height": 768}, "1920x1080": TV}
NAMES = ["Alessandra", "Bartholomew", "Christopher", "Dee", "Maximiliano", "Anna Maria Ferri", "Wu"]
#: The smallest type we call readable, in CSS pixels.
READABLE_PX = 11


def labels(page: Page, table_id: int) -> list[dict]:
    """Each cube label of the board drawing shown (landscape, or upright on a phone) as the
    browser draws it: its text, the member it belongs to, its rendered font size and box, and
    the room it has (the rail's right edge on the landscape board, the drawing's edge upright)."""
    return page.evaluate(
        """(id) => {
            const svg = [...document.querySelectorAll(`#board-${id} svg.board`)]
                .find((s) => s.getBoundingClientRect().width > 0);
            const frame = svg.getBoundingClientRect();
            const scale = frame.width / svg.viewBox.baseVal.width;
            const portrait = svg.classList.contains("portrait");
            return [...svg.querySelectorAll("g.cube")].map((g) => {
                const texts = [...g.querySelectorAll("text.cube-name")];
                const boxes = texts.map((t) => t.getBoundingClientRect());
                return {member: g.dataset.member, text: texts.map((t) => t.textContent).join(" "),
                        portrait,
                        px: Math.min(...texts.map((t) => parseFloat(getComputedStyle(t).fontSize) * scale)),
                        left: Math.min(...boxes.map((b) => b.left)),
                        right: Math.max(...boxes.map((b) => b.right)),
                        top: Math.min(...boxes.map((b) => b.top)),
                        bottom: Math.max(...boxes.map((b) => b.bottom)),
                        room: portrait ? frame.right : frame.left + 170 * scale};
            });
        }""",
        table_id,
    )


def test_several_cubes_are_labelled_with_whole_readable_names(browser: Browser, live_server):
    room = Room(live_server, {"cube_mode": "multi", "beavers": True, "partner_min_players": 9})
    box = "Olivia"
    room.play(*({"type": "join", "player": n} for n in [box, *NAMES]),
              {"type": "order", "players": [box, *NAMES]},
              {"type": "opening_roll", "box": 1, "team": 3}, {"type": "move", "move": "8/5 6/5"})
    room.play({"type": "double", "by": "box", "cubes": NAMES[1:4]},
              {"type": "take", "cube": NAMES[1]}, {"type": "drop", "cube": NAMES[2]})
    page = open_table(browser, room, room.owner, TV)
    SHOTS.mkdir(exist_ok=True)
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        drawn = labels(page, room.table_id)
        assert sorted(d["member"] for d in drawn) == sorted(NAMES)
        for label in drawn:
            assert label["text"].replace(" ", "") == label["member"].replace(" ", ""), label  # whole, no "…"
            assert label["px"] >= READABLE_PX, (size, label)
            assert label["right"] <= label["room"] + 1, (size, label)  # inside the rail
        assert all(d["portrait"] == (size == "390x844") for d in drawn)  # upright on the phone
        for a, b in itertools.combinations(drawn, 2):  # no label over another
            apart = (a["bottom"] <= b["top"] + 1 or b["bottom"] <= a["top"] + 1
                     or a["right"] <= b["left"] + 1 or b["right"] <= a["left"] + 1)
            assert apart, (size, a, b)
        page.locator(f"#board-{room.table_id}").screenshot(path=str(SHOTS / f"rail-{size}.png"))

    # Another device: Dee's cube is taken, the team redoubles; the page follows and still reads.
    seq = room.seq()
    room.play({"type": "take", "cube": NAMES[3]})
    expect(page.locator(f"#table-live-{room.table_id}")).not_to_have_attribute("data-seq", str(seq))
    page.set_viewport_size(PHONE)
    assert all(d["px"] >= READABLE_PX for d in labels(page, room.table_id))
    page.screenshot(path=str(SHOTS / "table-after-take-390x844.png"), full_page=True)
