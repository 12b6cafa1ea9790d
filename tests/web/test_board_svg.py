"""The board drawing: well-formed SVG, every checker accounted for, taps' data, escaping, perspective."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from flask import Flask, render_template
from markupsafe import Markup

from chouette.engine import Position
from chouette.table.cubes import MemberCube
from chouette.web.board import board_context, legal_steps, render_cube_list
from chouette.web.board_cubes import CubeView
from chouette.web.board_svg import render_board

SVG = "{http://www.w3.org/2000/svg}"
EVIL = '<script>alert("x")</script>'

# Named positions, each from the side on roll, with what each side has (own numbering).
POSITIONS = {
    "start": Position.initial(),
    "bar": Position.from_points({25: 2, 6: 7, 5: 3, 4: 2}, {25: 1, 1: 2, 18: 3, 2: 1, 3: 8}),
    "bear-off": Position.from_points({6: 3, 5: 2, 1: 1}, {1: 4, 2: 4, 3: 2}),
    "seven-on-a-point": Position.from_points({6: 7, 8: 8}, {6: 9, 13: 6}),
    "fifteen-off": Position.from_points({}, {19: 2, 25: 1, 1: 12}),
}


def parse(svg: Markup) -> ET.Element:
    """The SVG as an element tree (fails on anything not well-formed)."""
    return ET.fromstring(str(svg))


def groups(root: ET.Element, side: str) -> list[ET.Element]:
    """A side's checker groups: points, bar and tray."""
    return [
        g
        for g in root.iter(f"{SVG}g")
        if "checkers" in g.get("class", "").split() and g.get("data-side") == side
    ]


def layout(svg: Markup) -> dict[tuple[str, str, str], int]:
    """Where each side's checkers are drawn: (side, class, x/y of the group's first shape) -> count."""
    out: dict[tuple[str, str, str], int] = {}
    root = parse(svg)
    for side in ("box", "team"):
        for g in groups(root, side):
            first = next(iter(g), None)
            where = (
                "empty"
                if first is None
                else f"{first.get('cx') or first.get('x')},{first.get('cy') or first.get('y')}"
            )
            kind = "off" if "off" in g.get("class", "").split() else "stack"
            out[(side, kind, where)] = int(g.get("data-count"))
    return out


def counts(svg: Markup, side: str) -> dict[str, int]:
    """A side's checkers by where they are: point number (data-point, or 'bar'/'off'), count."""
    out: dict[str, int] = {}
    for g in groups(parse(svg), side):
        out[g.get("data-point") or g.get("class")] = int(g.get("data-count"))
    return out


@pytest.mark.parametrize("name", list(POSITIONS))
@pytest.mark.parametrize("on_roll", ["box", "team"])
def test_every_side_has_fifteen_checkers_drawn_or_counted(name, on_roll):
    svg = render_board(POSITIONS[name], on_roll=on_roll, dice=None)
    root = parse(svg)
    assert root.tag == f"{SVG}svg"
    for side in ("box", "team"):
        total = sum(int(g.get("data-count")) for g in groups(root, side))
        assert total == 15, f"{name}: {side} has {total} checkers: {counts(svg, side)}"
        # No stack draws more than five checkers; the count beyond is a label.
        for g in groups(root, side):
            circles = g.findall(f"{SVG}circle")
            assert len(circles) <= 5
            if int(g.get("data-count")) > 5 and "off" not in g.get("class"):
                assert g.find(f"{SVG}text").text == g.get("data-count")


def test_start_position_points_in_the_movers_numbering():
    svg = render_board(Position.initial(), on_roll="box", dice=(6, 5))
    root = parse(svg)
    points = [g for g in root.iter(f"{SVG}g") if "point" in g.get("class", "").split()]
    assert sorted(int(g.get("data-point")) for g in points) == list(range(1, 25))
    mover = {
        int(g.get("data-point")): int(g.get("data-mover"))
        for g in points
        if g.get("data-mover") != "0"
    }
    assert mover == {24: 2, 13: 5, 8: 3, 6: 5}
    box = {k: v for k, v in counts(svg, "box").items() if v}
    team = {k: v for k, v in counts(svg, "team").items() if v}
    assert box == {"24": 2, "13": 5, "8": 3, "6": 5}
    # The team's 24 point is the box's 1 point, and so on.
    assert team == {"1": 2, "12": 5, "17": 3, "19": 5}
    bar = [g for g in root.iter(f"{SVG}g") if "bar-area" in g.get("class", "")]
    assert bar[0].get("data-point") == "25"
    tray = [
        g for g in root.iter(f"{SVG}g") if g.get("class") == "tray" and g.get("data-point") == "0"
    ]
    assert len(tray) == 1


def test_team_on_roll_gets_its_own_point_numbers_in_data_attributes():
    position = POSITIONS["bar"]  # the box on roll, two on the bar, seven on the box's 6 point
    team_view = position.swap()
    svg = render_board(team_view, on_roll="team", dice=(3, 1))
    team = {k: v for k, v in counts(svg, "team").items() if v}
    assert team["25"] == 1  # the team's own bar is a tap source
    assert team["3"] == 8
    # The box's checkers carry the team's numbers: the box's 6 point is the team's 19.
    box = counts(svg, "box")
    assert box["19"] == 7
    assert box["checkers side-box"] == 2  # the opponent's bar: not a tap target
    assert "25" not in box


@pytest.mark.parametrize("name", list(POSITIONS))
def test_same_physical_position_draws_the_same_whoever_is_on_roll(name):
    position = POSITIONS[name]
    as_box = render_board(position, on_roll="box", dice=None)
    as_team = render_board(position.swap(), on_roll="team", dice=None)
    assert layout(as_box) == layout(as_team)
    # The same side stays at the bottom, in the same colour: its classes do not move.
    assert re.findall(r'class="checkers[^"]*side-(\w+)', as_box) == re.findall(
        r'class="checkers[^"]*side-(\w+)', as_team
    )
    assert len(layout(as_box)) >= 4


def test_team_at_the_bottom_mirrors_the_board():
    position = Position.initial()
    svg = render_board(position, on_roll="box", dice=None, bottom="team")
    root = parse(svg)
    assert root.get("data-bottom") == "team"
    numbers = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "number"]
    # Point numbers are the team's (bottom) numbers: 1 at bottom right as always.
    assert numbers[:3] == ["1", "2", "3"]
    # Data points are still the box's (on roll): the team's 1 point is the box's 24.
    first_point = next(g for g in root.iter(f"{SVG}g") if "point" in g.get("class", "").split())
    assert first_point.get("data-point") == "24"


def test_numbering_on_roll_labels_points_for_the_player_on_roll():
    svg = render_board(Position.initial(), on_roll="team", dice=None, numbering="on_roll")
    root = parse(svg)
    numbers = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "number"]
    assert numbers[0] == "24"  # the box's 1 point is the team's 24


def test_pips_in_text_and_aria_label():
    svg = render_board(POSITIONS["bear-off"], on_roll="box", dice=(4, 2))
    root = parse(svg)
    mover, other = POSITIONS["bear-off"].pips()
    pips = {
        g.get("data-side"): g for g in root.iter(f"{SVG}g") if "side" in g.get("class", "").split()
    }
    assert pips["box"].get("data-pips") == str(mover)
    assert f"{mover} pips" in "".join(pips["box"].itertext())
    assert f"{other} pips" in "".join(pips["team"].itertext())
    assert root.get("role") == "img"
    assert root.get("aria-label") == (
        f"Board: Box on roll; rolled 4-2; pips: Box {mover}, Team {other}; Box: 9 off; Team: 5 off"
    )
    assert root.find(f"{SVG}title").text == root.get("aria-label")


def test_dice_drawn_with_their_spots_and_title():
    svg = render_board(Position.initial(), on_roll="team", dice=(6, 3))
    root = parse(svg)
    dice = next(g for g in root.iter(f"{SVG}g") if g.get("class", "").startswith("dice"))
    assert dice.get("data-dice") == "6-3"
    assert dice.find(f"{SVG}title").text == "Roll 6-3"
    faces = dice.findall(f"{SVG}g")
    assert [f.get("data-value") for f in faces] == ["6", "3"]
    assert [len(f.findall(f"{SVG}circle")) for f in faces] == [6, 3]
    assert "side-team" in dice.get("class")


def test_no_dice_no_dice_group():
    svg = render_board(Position.initial(), on_roll=None, dice=None)
    assert 'class="dice' not in svg
    assert parse(svg).get("aria-label") == "Board: pips: Box 167, Team 167"


def test_fifteen_off_shows_the_tray_count():
    svg = render_board(POSITIONS["fifteen-off"], on_roll="box", dice=None)
    root = parse(svg)
    off = next(g for g in groups(root, "box") if "off" in g.get("class"))
    assert off.get("data-count") == "15"
    assert len(off.findall(f"{SVG}rect")) == 15
    assert off.find(f"{SVG}text").text == "15"
    assert "Box: 15 off" in root.get("aria-label")


def test_names_are_escaped_in_labels_cubes_and_the_cube_list():
    cubes = [
        CubeView(EVIL, 4, "member"),
        CubeView("Ann & Bob", 2, "box", offered=4, to_answer="member"),
    ]
    svg = render_board(
        Position.initial(),
        on_roll="box",
        dice=(1, 1),
        labels={"box": EVIL, "team": EVIL},
        cubes=cubes,
    )
    assert "<script>" not in svg
    root = parse(svg)  # still well-formed
    titles = [t.text for t in root.iter(f"{SVG}title")]
    assert EVIL in titles  # the full name, as text
    assert f"{EVIL}: cube 4, owned by {EVIL}" in titles
    assert "Ann & Bob: cube 2, owned by the box; doubled to 4, Ann & Bob to answer" in titles
    cube_list = render_cube_list(cubes)
    assert "<script>" not in cube_list
    assert "&lt;script&gt;" in cube_list
    ET.fromstring(str(cube_list))


def test_cubes_stand_by_their_owner_on_the_rail():
    cubes = [
        CubeView("Ann", 2, "member"),
        CubeView("Bob", 1),
        CubeView("Cid", 4, "box"),
        CubeView("Dee", 2, status="dropped"),
    ]
    root = parse(render_board(Position.initial(), on_roll="box", dice=None, cubes=cubes))
    ys = {}
    for g in root.iter(f"{SVG}g"):
        if g.get("class", "").startswith("cube "):
            ys[g.get("data-member")] = float(g.find(f"{SVG}rect").get("y"))
            assert g.find(f"{SVG}text").text == g.get("data-value")
    # The team owns Ann's cube (top), Bob's is in the middle, the box owns Cid's (bottom).
    assert ys["Ann"] < ys["Bob"] < ys["Cid"]
    assert "Dee" in ys
    with_box_on_top = parse(
        render_board(Position.initial(), on_roll="box", dice=None, cubes=cubes, bottom="team")
    )
    top = [
        g.get("data-member")
        for g in with_box_on_top.iter(f"{SVG}g")
        if g.get("class", "").startswith("cube ")
    ]
    assert top[0] == "Cid"


def test_many_cubes_fit_on_the_rail():
    cubes = [CubeView(f"Player {i}", 2 ** (i % 5), "box" if i % 2 else None) for i in range(16)]
    root = parse(render_board(Position.initial(), on_roll="box", dice=None, cubes=cubes))
    height = float(root.get("viewBox").split()[3])
    rects = [
        g.find(f"{SVG}rect") for g in root.iter(f"{SVG}g") if g.get("class", "").startswith("cube ")
    ]
    assert len(rects) == 16
    assert all(
        float(r.get("y")) >= 0 and float(r.get("y")) + float(r.get("height")) <= height
        for r in rects
    )


def test_without_the_rail_the_board_fills_the_width_and_keeps_the_pips():
    cubes = [CubeView("Ann", 2, "member")]
    svg = render_board(Position.initial(), on_roll="team", dice=(2, 1), cubes=cubes, rail=False)
    root = parse(svg)
    x, _y, width, _height = (float(v) for v in root.get("viewBox").split())
    with_rail = parse(render_board(Position.initial(), on_roll="team", dice=(2, 1)))
    assert x > 0 and x + width == float(with_rail.get("viewBox").split()[2])
    assert 'class="cube ' not in svg and "side-name" not in svg
    pips = {g.get("data-side"): g for g in root.iter(f"{SVG}g") if "corner" in g.get("class", "")}
    assert pips["box"].find(f"{SVG}text").text == "167"
    assert pips["team"].find(f"{SVG}circle") is not None  # the team is on roll
    assert pips["box"].find(f"{SVG}circle") is None
    # Every drawn shape is inside the view.
    xs = [float(e.get("x") or e.get("cx")) for e in root.iter() if e.get("x") or e.get("cx")]
    assert min(xs) >= x


@pytest.mark.parametrize(
    ("kind", "words"),
    [("double", "doubled to 4"), ("beaver", "beavered to 4"), ("raccoon", "raccooned to 4")],
)
def test_cube_offer_kinds_are_described(kind, words):
    cube = CubeView("Ann", 2, "member", offered=4, to_answer="box", offer_kind=kind)
    assert cube.describe() == f"Ann: cube 2, owned by Ann; {words}, the box to answer"
    assert "2 → 4?" in render_cube_list([cube])


def test_cube_view_from_a_member_cube():
    view = CubeView.from_member_cube(MemberCube("ann"), name="Ann")
    assert view == CubeView("Ann", 1, None, "live", None, None)


def test_legal_steps_mark_movable_points_and_targets():
    position = Position.initial()
    steps = legal_steps(position, (6, 5))
    assert steps[24] == {18}
    root = parse(render_board(position, on_roll="box", dice=(6, 5), legal=steps))
    movable = {
        g.get("data-point"): g.get("data-targets")
        for g in root.iter(f"{SVG}g")
        if "movable" in g.get("class", "")
    }
    assert movable["24"] == "18"
    assert set(movable) == {str(p) for p in steps}


def test_bad_side_names_are_refused():
    with pytest.raises(ValueError, match="side 'captain'"):
        render_board(Position.initial(), on_roll="captain", dice=None)
    with pytest.raises(ValueError, match="impossible roll"):
        render_board(Position.initial(), on_roll="box", dice=(7, 1))
    with pytest.raises(ValueError, match="numbering"):
        render_board(Position.initial(), on_roll="box", dice=None, numbering="left")


def test_member_is_the_team_side():
    assert render_board(Position.initial(), on_roll="member", dice=None) == render_board(
        Position.initial(), on_roll="team", dice=None
    )


# --- the fragment ---------------------------------------------------------------------------


def render_fragment(app: Flask, **overrides) -> str:
    context = board_context(
        12,
        Position.initial(),
        on_roll="box",
        dice=(6, 5),
        cubes=[CubeView(EVIL, 2, "member")],
        labels={"box": EVIL},
        interactive=True,
        move_url="/tables/12/move",
    )
    context.update(overrides)
    with app.test_request_context():
        return render_template("board/_board.html", **context)


def test_fragment_has_a_stable_id_the_board_and_a_move_form(app):
    html = render_fragment(app, move_value="24/18 <b>")
    assert html.lstrip().startswith('<section id="board-12"')
    assert re.search(r'data-board\s+data-interactive="true"', html)
    assert "<script>alert" not in html
    assert 'action="/tables/12/move"' in html
    assert 'name="move" value="24/18 &lt;b&gt;"' in html
    assert 'placeholder="24/18 13/8"' in html
    assert 'href="/static/css/board.css"' in html and 'src="/static/js/board.js"' in html
    assert 'class="board-cubes"' in html
    assert "hx-post" not in html


def test_fragment_with_htmx_target_and_error(app):
    html = render_fragment(
        app, hx_target="#table-12", move_error="You must play both dice.", board_assets=False
    )
    assert 'hx-post="/tables/12/move" hx-target="#table-12" hx-swap="morph"' in html
    assert 'role="alert">You must play both dice.' in html
    assert "board.js" not in html


def test_fragment_carries_the_csrf_token(csrf_app):
    html = render_fragment(csrf_app)
    assert re.search(r'<input type="hidden" name="csrf_token" value="[^"]+">', html)


def test_fragment_read_only_has_no_form(app):
    html = render_fragment(app, interactive=False)
    assert 'data-interactive="false"' in html
    assert "<form" not in html and "board.js" not in html
    assert "<svg" in html


def test_board_context_nobody_on_roll_is_not_interactive():
    context = board_context(
        3, Position.initial(), on_roll=None, dice=None, interactive=True, move_url="/m"
    )
    assert context["interactive"] is False
    assert context["position_id"] == "4HPwATDgc/ABMA"


def test_docstring_examples_run():
    import doctest

    from chouette.web import board, board_svg

    for module in (board_svg, board):
        result = doctest.testmod(module)
        assert result.attempted > 0, f"{module.__name__} has no examples"
        assert result.failed == 0


def test_interactive_board_carries_the_tap_graph_and_an_upright_drawing(app):
    from chouette.web.board_taps import decode, offered_targets

    html = render_fragment(app)
    taps = re.search(r'data-taps="([^"]+)"', html)
    assert taps is not None
    graph = decode(taps.group(1).replace("&gt;", ">"))
    assert sorted(offered_targets(graph, 0)[24]) == [13, 18]
    assert html.count("<svg") == 2 and 'class="board portrait bottom-box"' in html
    assert 'data-board-undo hidden' in html and 'data-board-clear hidden' in html


def test_read_only_board_has_no_tap_graph_and_an_upright_drawing_with_its_cubes():
    """A phone reads a board it does not play on upright too, each cube with its whole name
    (issue 25); a board drawn without the rail (the big screen) has one drawing."""
    cubes = [CubeView("Bartholomew", 2, "box"), CubeView("Anna Maria Ferri", 1)]
    context = board_context(12, Position.initial(), on_roll="box", dice=(6, 5), interactive=False,
                            cubes=cubes)
    svg = str(context["board_svg"])
    assert context["taps"] == "" and svg.count("<svg") == 2
    portrait = parse(svg[svg.index('<svg', 1):])
    names = {g.get("data-member"): " ".join(t.text for t in g.iter(f"{SVG}text")
                                            if t.get("class") == "cube-name")
             for g in portrait.iter(f"{SVG}g") if g.get("class", "").startswith("cube ")}
    assert names == {"Bartholomew": "Bartholomew", "Anna Maria Ferri": "Anna Maria Ferri"}
    bare = board_context(12, Position.initial(), on_roll="box", dice=(6, 5), rail=False)
    assert str(bare["board_svg"]).count("<svg") == 1


def test_cube_names_on_the_rail_are_whole_never_cut():
    """Issue 25: a long name is drawn whole, squeezed to the rail or broken between words."""
    cubes = [CubeView("Bartholomew", 2, "box"), CubeView("Anna Maria Ferri", 1),
             CubeView("Christopher", 4, "member", status="dropped")]
    root = parse(render_board(Position.initial(), on_roll="box", dice=None, cubes=cubes))
    for g in root.iter(f"{SVG}g"):
        if g.get("class", "").startswith("cube "):
            lines = [t for t in g.iter(f"{SVG}text") if t.get("class") == "cube-name"]
            assert " ".join(t.text for t in lines) == g.get("data-member")
            assert all("…" not in t.text for t in lines)
            assert all(float(t.get("font-size")) >= 13 for t in lines)
            if len(lines) == 1 and len(lines[0].text) > 9:
                assert float(lines[0].get("textLength")) <= 170 - 16 - 40


def test_every_point_bar_and_tray_say_where_board_js_draws_their_checkers():
    from chouette.web.board_portrait import render_portrait_board

    position = Position.from_points({25: 1, 6: 13}, {25: 2, 6: 11})
    for svg in (
        render_board(position, on_roll="team", dice=(3, 1)),
        render_portrait_board(position, on_roll="team", dice=(3, 1)),
    ):
        root = parse(svg)
        points = [g for g in root.iter(f"{SVG}g") if "point" in g.get("class", "").split()]
        assert len(points) == 24 and all(len(g.get("data-stack").split()) == 5 for g in points)
        bar = next(g for g in root.iter(f"{SVG}g") if g.get("class", "").startswith("bar-area"))
        assert bar.get("data-mover") == "1" and bar.get("data-other") == "2"
        assert bar.get("data-stack-box") and bar.get("data-stack-team")
        tray = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "tray" and g.get("data-point") == "0")
        assert len(tray.get("data-slabs").split()) == 8
        six = next(g for g in points if g.get("data-point") == "6")
        assert six.get("data-mover") == "13" and six.get("data-other") == "0"


def test_only_the_svg_carries_an_aria_label():
    """The board is one image (role="img") whose label says everything, checkers off included:
    an aria-label on a plain <g> is not allowed by ARIA (axe's aria-prohibited-attr)."""
    root = parse(render_board(POSITIONS["bear-off"], on_roll="box", dice=(4, 2)))
    labelled = [el.tag for el in root.iter() if el.get("aria-label") is not None]
    assert labelled == [root.tag]
    assert "Box: 9 off; Team: 5 off" in root.get("aria-label")
