"""The render gate's slots are taken in turn (``chouette.web.gate.Turns``)."""

from __future__ import annotations

import threading
import time

from chouette.web.gate import Gate

WAIT = 10.0  # seconds a thread may take before the test fails (a bound, not a measure)


def _until(condition) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, "never happened"
        time.sleep(0.005)


def test_the_drawings_take_the_gate_in_the_order_they_came():
    """A slot let go goes to the longest waiting, never to one who asks at that moment: under a
    steady flow of fetches, a screen's stream waiting for its drawing's turn once waited behind
    newcomers for good (its screen froze on a waiting cube)."""
    gate = Gate(1)
    order: list[str] = []

    def draw(name: str) -> None:
        gate.enter_drawing()
        order.append(name)
        gate.leave_drawing()

    gate.enter_drawing()  # the only slot, held
    waiting = []
    for count, name in enumerate(("first", "second"), start=1):
        thread = threading.Thread(target=draw, args=(name,), daemon=True)
        thread.start()
        waiting.append(thread)
        _until(lambda count=count: gate.slots.waiting() == count)
    gate.leave_drawing()
    draw("newcomer")  # asks the moment the slot is let go: it waits its turn
    for thread in waiting:
        thread.join(WAIT)
    assert order == ["first", "second", "newcomer"]
    assert gate.slots.free() == 1 and gate.slots.waiting() == 0
