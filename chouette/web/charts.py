"""Charts drawn on the server as SVG: no chart JavaScript, readable without any script.

``balance_chart`` draws a player's running balance game by game: axes, the zero line, money
labels on the left, game numbers and night marks below, one point per game, and an
accessible title and description. Every text is escaped.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

WIDTH = 640
HEIGHT = 300
LEFT, RIGHT, TOP, BOTTOM = 92, 16, 16, 48
#: Up to this many games every point also gets a dot with its own tooltip.
MAX_DOTS = 150
#: At most this many night marks are labelled (the others keep their tick).
MAX_MARK_LABELS = 8


@dataclass(frozen=True)
class ChartPoint:
    """One game on the chart: its running balance and the text of its tooltip."""

    balance: int
    label: str


def _ticks(low: int, high: int, count: int = 4) -> list[int]:
    """About ``count`` round values from ``low`` to ``high`` (zero always among them)."""
    span = max(high - low, 1)
    raw = span / count
    magnitude = 10 ** (len(str(int(raw))) - 1) if raw >= 1 else 1
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    start = -(-low // step) * step if low < 0 else 0
    ticks = {0}
    value = start
    while value <= high:
        ticks.add(value)
        value += step
    return sorted(t for t in ticks if low <= t <= high)


def _number(value: float) -> str:
    """A coordinate with at most one decimal (small files, exact enough)."""
    text = f"{value:.1f}"
    return text.removesuffix(".0")


def balance_chart(points: Sequence[ChartPoint], *, title: str, description: str,
                  money: Callable[[int], str], marks: Sequence[tuple[int, str]] = (),
                  chart_id: str = "balance-chart") -> Markup:
    """The running balance as an SVG line chart (cents on the y axis, games on the x axis).

    ``marks`` are (index of a game, label): where a night starts. ``money`` formats cents.
    """
    count = len(points)
    values = [p.balance for p in points]
    low, high = min([0, *values]), max([0, *values])
    if low == high:
        low, high = low - 100, high + 100
    pad = (high - low) * 0.06
    low_edge, high_edge = low - pad, high + pad
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(index: int) -> float:
        return LEFT + (plot_w / 2 if count <= 1 else index * plot_w / (count - 1))

    def y(value: float) -> float:
        return TOP + (high_edge - value) * plot_h / (high_edge - low_edge)

    chart_id = str(escape(chart_id))
    title_id, desc_id = f"{chart_id}-title", f"{chart_id}-desc"
    parts = [
        (f'<svg id="{chart_id}" class="chart" xmlns="http://www.w3.org/2000/svg" '
         f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-labelledby="{title_id} {desc_id}" '
         f'data-games="{count}">'),
        f'<title id="{title_id}">{escape(title)}</title>',
        f'<desc id="{desc_id}">{escape(description)}</desc>',
        f'<rect class="chart-plot" x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}"/>',
    ]
    # The money axis: round values, the zero line drawn stronger.
    for tick in _ticks(low, high):
        ty = _number(y(tick))
        cls = "chart-zero" if tick == 0 else "chart-grid"
        parts.append(f'<line class="{cls}" x1="{LEFT}" y1="{ty}" x2="{WIDTH - RIGHT}" y2="{ty}"/>')
        parts.append(f'<text class="chart-label chart-y" x="{LEFT - 8}" y="{ty}" '
                     f'text-anchor="end" dominant-baseline="middle">{escape(money(tick))}</text>')
    parts.append(f'<line class="chart-axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + plot_h}"/>')
    parts.append(f'<line class="chart-axis" x1="{LEFT}" y1="{TOP + plot_h}" x2="{WIDTH - RIGHT}" '
                 f'y2="{TOP + plot_h}"/>')
    # The games axis: nights as ticks, the first and last game numbered.
    labelled = {i for i, _ in marks[:: max(1, -(-len(marks) // MAX_MARK_LABELS))]}
    for index, label in marks:
        mx = _number(x(index))
        parts.append(f'<line class="chart-mark" x1="{mx}" y1="{TOP}" x2="{mx}" y2="{TOP + plot_h}"/>')
        if index in labelled:
            parts.append(f'<text class="chart-label chart-night" x="{mx}" y="{TOP + plot_h + 38}" '
                         f'text-anchor="middle">{escape(label)}</text>')
    if count:
        parts.append(f'<text class="chart-label chart-x" x="{_number(x(0))}" y="{TOP + plot_h + 18}" '
                     f'text-anchor="middle">1</text>')
    if count > 1:
        parts.append(f'<text class="chart-label chart-x" x="{_number(x(count - 1))}" '
                     f'y="{TOP + plot_h + 18}" text-anchor="middle">{count}</text>')
    if count:
        coords = " ".join(f"{_number(x(i))},{_number(y(v))}" for i, v in enumerate(values))
        zero = _number(y(0))
        parts.append(f'<polygon class="chart-area" points="{_number(x(0))},{zero} {coords} '
                     f'{_number(x(count - 1))},{zero}"/>')
        parts.append(f'<polyline class="chart-line" points="{coords}"/>')
        if count <= MAX_DOTS:
            for index, point in enumerate(points):
                cls = "chart-dot up" if point.balance >= 0 else "chart-dot down"
                parts.append(f'<circle class="{cls}" cx="{_number(x(index))}" '
                             f'cy="{_number(y(point.balance))}" r="3.5">'
                             f'<title>{escape(point.label)}</title></circle>')
    parts.append("</svg>")
    return Markup("".join(parts))
