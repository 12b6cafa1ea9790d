"""Property tests: random sequences of cube actions against a small independent model."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from chouette.engine.cube import Cube, CubeResult
from chouette.engine.errors import CubeError

ACTIONS = ("double", "take", "drop", "beaver", "raccoon")
steps = st.lists(st.tuples(st.sampled_from(ACTIONS), st.sampled_from((0, 1))), max_size=80)


@dataclass
class Model:
    """The rules of docs/rules.md 1.7 written out plainly, to check the Cube against."""

    value: int = 1
    owner: int | None = None
    pending: tuple[int, str] | None = None  # (side that offered, kind)
    turned: bool = False

    def legal(self, action: str, side: int, beavers: bool, raccoons: bool) -> bool:
        if action == "double":
            return self.pending is None and self.owner in (None, side)
        if self.pending is None or side == self.pending[0]:
            return False
        kind = self.pending[1]
        if action == "beaver":
            return beavers and kind == "double"
        if action == "raccoon":
            return raccoons and kind == "beaver"
        return True

    def apply(self, action: str, side: int) -> None:
        if action == "double":
            self.pending = (side, "double")
        elif action == "take":
            kind = self.pending[1]
            self.value *= 2
            self.owner = side if kind == "double" else self.owner
            self.pending, self.turned = None, True
        elif action in ("beaver", "raccoon"):
            self.value *= 2  # the implied take
            self.owner = side if action == "beaver" else self.owner
            self.pending, self.turned = (side, action), True


def call(cube: Cube, action: str, side: int, beavers: bool, raccoons: bool):
    if action == "beaver":
        return cube.beaver(side, allowed=beavers)
    if action == "raccoon":
        return cube.raccoon(side, allowed=raccoons)
    return getattr(cube, action)(side)


@settings(max_examples=400)
@given(steps=steps, beavers=st.booleans(), raccoons=st.booleans())
def test_random_cube_actions_follow_the_rules(steps, beavers, raccoons):
    raccoons = raccoons and beavers
    cube, model = Cube(), Model()
    for action, side in steps:
        legal = model.legal(action, side, beavers, raccoons)
        if action == "double":
            assert cube.can_double(side) == legal
        if not legal:
            try:
                call(cube, action, side, beavers, raccoons)
            except CubeError as error:
                assert f"side {side} cannot {action}" in str(error)
                continue
            raise AssertionError(f"{action} by side {side} was allowed on {cube!r}")
        outcome = call(cube, action, side, beavers, raccoons)
        if action == "drop":
            # A drop loses the value before the double; the points sum to zero; the game ends.
            assert outcome == CubeResult(winner=1 - side, points=model.value, dropped=True)
            assert sum(outcome.by_side) == 0
            return
        model.apply(action, side)
        cube = outcome
        # Invariants: a power of two, the owner is the last taker (or the beaverer), and the
        # state matches the model exactly.
        assert cube.value & (cube.value - 1) == 0
        assert (cube.value, cube.owner, cube.turned) == (model.value, model.owner, model.turned)
        pending = None if cube.offer is None else (cube.offer.side, cube.offer.kind)
        assert pending == model.pending
        # The answers offered to the side that must answer are exactly the legal ones.
        if cube.to_answer is not None:
            expected = {a for a in ACTIONS[1:] if model.legal(a, cube.to_answer, beavers, raccoons)}
            assert set(cube.answers(beavers=beavers, raccoons=raccoons)) == expected
        else:
            assert cube.answers(beavers=beavers, raccoons=raccoons) == ()
    if cube.offer is None:
        for winner in (0, 1):
            for multiplier in (1, 2, 3):
                result = cube.settle(winner, multiplier, jacoby=beavers)
                assert sum(result.by_side) == 0
                assert result.points in (cube.value, cube.value * multiplier)


@given(doubles=st.integers(min_value=0, max_value=64), automatic=st.integers(min_value=0, max_value=8))
def test_value_is_two_to_the_number_of_accepted_doubles(doubles, automatic):
    cube, side = Cube.automatic(automatic), 0
    for _ in range(doubles):
        cube = cube.double(side).take(1 - side)
        side = 1 - side
    assert cube.value == 2 ** (doubles + automatic)
    assert cube.turned == (doubles > 0)
    assert eval(repr(cube)) == cube
