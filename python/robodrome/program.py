"""The factored form of a RoboRally program (docs/python.md, "Encodings").

A program (RR-4.2, the ``program`` action) is six choices, made one after the other, each a
small ``Discrete`` head with its own mask::

    heads 0..4   register 1..5: the index of a card in the seat's hand (0..8), or NONE (9) —
                 a locked register (RR-7.2: it keeps its card) or a hand already used up
    head 5       the power-down announcement for next turn (RR-4.4): 0 no, 1 yes (damaged only)

Head ``k``'s mask depends on the choices before it: a card of the hand goes in one register
only. Against the flat form's 15,120 programs of a full hand (30,240 with power down) the
agent sees 6 heads of at most 10. The masks are an encoding of the seat's own view (its hand,
its locked registers, its damage), not a rule: the engine judges every program (``Game.apply``
raises ``IllegalAction``), and ``python/tests/test_program.py`` checks that the factored
programs are exactly the engine's legal ``program`` actions, both ways. The other actions of a
programming decision (the draft's ``place``, option uses) stay in the flat form.

    p = Program(game, seat)          # BadInput if the seat owes no program now
    m = p.mask([])                   # head 0's mask; p.mask([3]) head 1's after card 3 ...
    action = p.action([3, 0, 8, 1, 2, 0])
    game.apply(seat, action)
    p.heads(action)                  # back: [3, 0, 8, 1, 2, 0]
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from ._native import BadInput

#: Every head's size: five registers (a hand index 0..8 or NONE), then power down (2).
HEADS = (10, 10, 10, 10, 10, 2)
#: The "no card" choice of a register head.
NONE = 9


class Program:
    """The factored program of ``seat`` in ``game``'s present state (read from its own view)."""

    __slots__ = ("hand", "locked", "damaged")

    def __init__(self, game, seat: int):
        d = game.decision()
        if d is None or seat not in d[1]:
            raise BadInput(f"seat {seat} owes no decision now")
        view = game.view(seat)
        robot = next((r for r in view.get("robots", []) if r.get("seat") == seat), None)
        if robot is None or robot.get("hand") is None or view.get("phase") != "program":
            raise BadInput(f"seat {seat} owes no program now (not a RoboRally programming decision)")
        self.hand: list[dict] = robot["hand"]
        self.locked = {int(r) - 1 for r in robot.get("locked_registers", [])}
        self.damaged = int(robot.get("damage", 0)) > 0

    def mask(self, prefix: Sequence[int]) -> np.ndarray:
        """The mask of head ``len(prefix)`` after the choices ``prefix`` (bool, ``HEADS[k]``)."""
        k = len(prefix)
        if k > 5:
            raise BadInput("a program has six heads")
        m = np.zeros(HEADS[k], dtype=bool)
        if k == 5:
            m[0] = True
            m[1] = self.damaged
            return m
        used = {c for c in prefix if c != NONE}
        free = [i for i in range(len(self.hand)) if i not in used]
        if k in self.locked or not free:
            m[NONE] = True
        else:
            m[free] = True
        return m

    def action(self, heads: Sequence[int]) -> dict[str, Any]:
        """The ``program`` action of six head choices (BadInput if one is masked out)."""
        if len(heads) != 6:
            raise BadInput(f"a program is six head choices, not {len(heads)}")
        heads = [int(h) for h in heads]
        used: set[int] = set()
        for k, h in enumerate(heads[:5]):  # what mask(heads[:k]) allows, without arrays
            if k in self.locked or len(used) == len(self.hand):
                ok = h == NONE
            else:
                ok = 0 <= h < len(self.hand) and h not in used
            if not ok:
                raise BadInput(f"head {k}: choice {h} is not allowed after {heads[:k]}")
            used.add(h)
        if heads[5] not in ((0, 1) if self.damaged else (0,)):
            raise BadInput(f"head 5: choice {heads[5]} is not allowed (power down: damaged only)")
        registers = [None if h == NONE else self.hand[h] for h in heads[:5]]
        return {"type": "program", "registers": registers, "power_down_next": bool(heads[5])}

    def heads(self, action: dict[str, Any]) -> list[int]:
        """The head choices of a ``program`` action (BadInput if a card is not in the hand)."""
        if action.get("type") != "program":
            raise BadInput("not a program action")
        out = []
        for card in action.get("registers", []):
            if card is None:
                out.append(NONE)
            elif card in self.hand:
                out.append(self.hand.index(card))
            else:
                raise BadInput(f"card {card} is not in the hand")
        return out + [1 if action.get("power_down_next") else 0]
