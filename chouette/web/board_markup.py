"""The SVG markup both drawings of the board share (landscape and upright).

An element with its attributes escaped (``tag``), a coordinate (``num``), a side's name on one
or two lines (``name_lines``, ``name_text``), and one member's cube with its name
(``cube_group``).
"""

from __future__ import annotations

from markupsafe import Markup, escape

from chouette.web.board_cubes import CubeView, normal_side

NAME_CHARS = 9  # characters of a member's name on the rail (the <title> has it all)


_ATTR_NAMES: dict[str, str] = {}


def _attr_name(name: str) -> str:
    """``data_point`` -> ``data-point``, ``class_`` -> ``class`` (memoised: it is hot)."""
    try:
        return _ATTR_NAMES[name]
    except KeyError:
        return _ATTR_NAMES.setdefault(name, name.rstrip("_").replace("_", "-"))


def tag(name: str, body: Markup | str = "", **attrs: object) -> Markup:
    """One element; every attribute value is escaped, and ``body`` too unless it is Markup.

    Built with f-strings and ``escape`` rather than ``Markup.format``: five times faster, and a
    board has a few hundred elements. Attributes whose value is None are left out.
    """
    attributes = "".join(
        f' {_attr_name(key)}="{value if type(value) is int else escape(value)}"'
        for key, value in attrs.items()
        if value is not None
    )
    return Markup(f"<{name}{attributes}>{escape(body)}</{name}>")


def short(text: str, limit: int = NAME_CHARS) -> str:
    """``text`` cut to ``limit`` characters, an ellipsis last when it was longer."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def name_lines(name: str, limit: int) -> list[str]:
    """A side's name in at most two lines of about ``limit`` characters, broken between
    words (issue #25: a name is wrapped, never cut); a line still longer is drawn squeezed
    to its width (``name_text``)."""
    words = name.split()
    if len(name) <= limit or len(words) < 2:
        return [name]
    # The break that makes the longer line shortest.
    cut = min(range(1, len(words)),
              key=lambda i: max(len(" ".join(words[:i])), len(" ".join(words[i:]))))
    return [" ".join(words[:cut]), " ".join(words[cut:])]


def name_text(line: str, font: float, width: float, class_: str = "side-name",
               **attrs: object) -> Markup:
    """One line of a side's name in a ``font`` px bold font: squeezed to ``width`` when it
    may be wider (estimated at 0.65 em a character: over rather than under)."""
    squeeze = len(line) * font * 0.65 > width
    return tag("text", line, textLength=num(width) if squeeze else None,
                lengthAdjust="spacingAndGlyphs" if squeeze else None, class_=class_, **attrs)


def num(value: float) -> str:
    """A coordinate without a useless ``.0``."""
    return f"{value:g}" if isinstance(value, float) else str(value)


def cube_group(cube: CubeView, x: float, y: float, size: float, name_width: float,
               font: float) -> Markup:
    """One member's cube: its face (the value, or the value offered and a "?") at (x, y), and
    the member's whole name beside it in ``name_width`` (issue 25: never cut with "…"). A name
    too long for one line breaks between words in two smaller lines when the row is tall
    enough, else it is drawn squeezed to the width (``name_text``)."""
    where = "middle" if not cube.owner else normal_side(cube.owner)
    classes = f"cube owner-{where}"
    if not cube.is_live:
        classes += f" cube-{cube.status}"
    if cube.offered and cube.to_answer:
        classes += " offered"
    value = str(cube.offered) + "?" if cube.offered and cube.to_answer else str(cube.value)
    lines = [cube.member]
    if len(cube.member) * font * 0.6 > name_width and size >= 30:
        lines = name_lines(cube.member, max(1, int(name_width / (font * 0.5))))
    small = font * 0.8 if len(lines) > 1 else font
    first = y + size / 2 + (small * 0.35 if len(lines) == 1 else -small * 0.2)
    names = [name_text(line, small, name_width, "cube-name", x=num(x + size + 8),
                        y=num(round(first + row * small * 1.05, 1)), font_size=num(round(small, 1)))
             for row, line in enumerate(lines)]
    body = Markup("").join([
        tag("title", cube.describe()),
        tag("rect", x=num(x), y=num(y), width=num(size), height=num(size), rx=6,
             class_="cube-face"),
        tag("text", value, x=num(x + size / 2), y=num(y + size / 2 + 7),
             class_="cube-value" if len(value) <= 2 else "cube-value small"),
        *names,
    ])
    return tag("g", body, class_=classes, data_member=cube.member, data_value=cube.value)



__all__ = ["cube_group", "name_lines", "name_text", "num", "short", "tag"]


#: Where a die's pips stand on its 3 x 3 grid, by value.
DIE_SPOTS = {
    1: [(1, 1)],
    2: [(0, 0), (2, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (2, 0), (0, 2), (2, 2)],
    5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
    6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
}


def die_face(value: int, x: float, y: float, size: float, corner: float, pip: float) -> Markup:
    """One die of side ``size`` at (x, y): a rounded square (``corner``) with pips of radius ``pip``."""
    cell = size / 4
    body = [tag("rect", x=num(x), y=num(y), width=size, height=size, rx=corner, class_="die-face")]
    body += [tag("circle", cx=num(x + cell * (i + 1)), cy=num(y + cell * (j + 1)), r=pip, class_="die-pip")
             for i, j in DIE_SPOTS[value]]
    return tag("g", Markup("").join(body), class_="die", data_value=value)
