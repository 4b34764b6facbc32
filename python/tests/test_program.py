"""The factored form of a RoboRally program (robodrome.program, docs/python.md "Encodings"):
every factored program is a legal engine action and every legal program has its factored form."""
import numpy as np
import pytest

import robodrome
from robodrome.program import HEADS, NONE, Program


def _all_heads(p: Program):
    """Every sequence of six head choices the masks allow (depth first)."""
    out, stack = [], [[]]
    while stack:
        prefix = stack.pop()
        if len(prefix) == len(HEADS):
            out.append(prefix)
            continue
        for h in np.flatnonzero(p.mask(prefix)):
            stack.append(prefix + [int(h)])
    return out


def _key(action):
    """A program action as a comparable value (a card is identified by its priority, RR-1.1)."""
    assert set(action) == {"type", "registers", "power_down_next"}, action
    regs = tuple(None if c is None else (c["card"], c["priority"]) for c in action["registers"])
    return action["type"], regs, action["power_down_next"]


def _check_both_ways(g, seat):
    p = Program(g, seat)
    factored = _all_heads(p)
    mapped = {_key(p.action(h)) for h in factored}
    assert len(mapped) == len(factored), "two head sequences gave one program"
    legal = [a for a in g.legal_actions(seat) if a["type"] == "program"]
    assert mapped == {_key(a) for a in legal}
    for a in legal:  # and back
        assert _key(p.action(p.heads(a))) == _key(a)
    return p, len(legal)


def test_every_factored_program_is_a_legal_action_and_back():
    """RR-4.2: nine cards dealt, five registers: 9·8·7·6·5 = 15,120 programs (no damage, no
    power down, RR-4.4), each reached by exactly one sequence of heads."""
    g = robodrome.new_game("roborally", seed=3)
    p, n = _check_both_ways(g, 0)
    assert n == 15_120 and len(p.hand) == 9 and not p.locked
    assert p.mask([])[NONE] == False and p.mask([4, 2, 0, 1, 3]).tolist() == [True, False]  # noqa: E712
    # and the engine takes one: the program is committed, the seat owes nothing more
    g.apply(0, p.action([4, 2, 0, 1, 3, 0]))
    assert 0 not in g.owing()


def test_locked_registers_and_power_down_in_factored_form():
    """RR-7.2: with 5 or more damage registers lock (from register 5 down) and keep their card:
    their head offers only NONE; RR-4.4: a damaged robot may announce power down. Random games
    (fixed seeds) are played until a seat programs with locked registers."""
    found = None
    for seed in range(40):
        g = robodrome.new_game("roborally", seed=seed)
        for k in range(400):
            d = g.decision()
            if d is None:
                break
            s = d[1][0]
            v = g.view(s)
            r = next(r for r in v["robots"] if r["seat"] == s)
            if v["phase"] == "program" and r.get("hand") is not None and r["locked_registers"]:
                found = (g, s, r)
                break
            g.apply(s, g.sample_action(s, seed * 1000 + k))
        if found:
            break
    if found is None:
        pytest.skip("no random game reached locked registers within the budget")
    g, s, r = found
    p, n = _check_both_ways(g, s)
    assert p.locked == {x - 1 for x in r["locked_registers"]} and p.damaged
    for k in sorted(p.locked):  # a locked register's head, reached by allowed choices: NONE only
        prefix: list[int] = []
        while len(prefix) < k:
            prefix.append(int(np.flatnonzero(p.mask(prefix))[0]))
        assert np.flatnonzero(p.mask(prefix)).tolist() == [NONE]
    prefix = []
    while len(prefix) < 5:
        prefix.append(int(np.flatnonzero(p.mask(prefix))[0]))
    assert p.mask(prefix).tolist() == [True, True]  # damaged: power down may be announced


def test_a_masked_out_choice_is_refused_and_changes_nothing():
    g = robodrome.new_game("roborally", seed=5)
    p = Program(g, 0)
    before = g.to_json()
    with pytest.raises(robodrome.BadInput):
        p.action([1, 1, 2, 3, 4, 0])  # the same card twice (RR-4.2)
    with pytest.raises(robodrome.BadInput):
        p.action([1, 2, 3, 4, 5, 1])  # power down undamaged (RR-4.4)
    with pytest.raises(robodrome.BadInput):
        p.heads({"type": "program", "registers": [{"card": "move1", "priority": 1}] * 5})
    assert g.to_json() == before
