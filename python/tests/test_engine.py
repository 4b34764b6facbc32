"""The engine API through Python: golden scenarios, typed errors, save/replay, secrecy."""
import json
import pathlib
import random

import numpy as np
import pytest

import robodrome
from robodrome import BadInput, IllegalAction, ReplayError, RobodromeError

ROOT = pathlib.Path(__file__).resolve().parents[2]
GOLDEN = sorted(ROOT.glob("crates/*/tests/golden/*.json"))
GAMES = [k["name"] for k in robodrome.kinds()]


_MISSING = object()


def _lookup(doc, path):
    for part in path.split("."):
        if not isinstance(doc, dict) or part not in doc:
            return _MISSING
        doc = doc[part]
    return doc


def _ident(v):
    if isinstance(v, dict):
        for k in ("seat", "car", "id"):
            if k in v:
                return v[k] if isinstance(v[k], str) else json.dumps(v[k])
    return None


def _matches(want, got, at, errs):
    # the rules of crates/scenario/src/expect.rs (the shared conformance checker's)
    if isinstance(want, dict) and isinstance(got, list):
        for k, v in want.items():
            item = next((i for i in got if _ident(i) == k), None)
            if item is None:
                errs.append(f"{at}[{k}] missing")
            else:
                _matches(v, item, f"{at}[{k}]", errs)
    elif isinstance(want, dict) and isinstance(got, dict):
        for k, v in want.items():
            if k not in got:
                errs.append(f"{at}.{k} missing")
            else:
                _matches(v, got[k], f"{at}.{k}", errs)
    elif want == got:
        pass
    elif (isinstance(want, list) and isinstance(got, list) and len(want) == len(got)
          and all(isinstance(w, dict) for w in want)):
        for i, (a, b) in enumerate(zip(want, got)):
            _matches(a, b, f"{at}[{i}]", errs)
    else:
        errs.append(f"{at}: want {want} got {got}")


def test_there_are_golden_files():
    assert len(GOLDEN) > 50


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.name)
def test_golden_scenario_through_python(path):
    """Each golden file's expect block (written from the rules) holds for Python's run."""
    doc = json.loads(path.read_text())
    expect = doc.get("expect") or {}
    try:
        out, code = robodrome.run_scenario(str(path))
    except BadInput:
        assert expect.get("exit") == 2
        return
    errs = []
    for key, want in expect.items():
        if key == "exit":
            if want != code:
                errs.append(f"exit {code}, want {want}")
            continue
        got = _lookup(out, key)
        if got is _MISSING:
            errs.append(f"{key} missing")
        else:
            _matches(want, got, key, errs)
    assert not errs, errs


def _random_game(name, seed, max_steps=400):
    g = robodrome.new_game(name, seed=seed)
    rng = random.Random(seed)
    steps = 0
    while g.decision() and steps < max_steps:
        for s in g.owing():
            if s in g.owing():
                g.apply_index(s, rng.randrange(g.legal_count(s)))
                steps += 1
    return g


@pytest.mark.parametrize("name", [n for n in GAMES if n != "roborally"])
def test_save_and_replay_give_the_same_state(name):
    g = _random_game(name, 3)
    text = g.to_json()
    h = robodrome.from_json(text)
    assert h.same_state(g)
    assert h.to_json() == text
    assert h.view(robodrome.OMNISCIENT) == g.view(robodrome.OMNISCIENT)
    assert h.decision() == g.decision() and h.outcome() == g.outcome()


def test_a_finished_game_has_an_outcome_and_rewards():
    g = _random_game("rps", 1, 10_000)
    assert g.decision() is None
    o = g.outcome()
    assert o["ranking"]
    r = g.rewards()
    assert sorted(r) == [-1.0, 1.0]  # rock-paper-scissors to 3: one winner (TOY-4)
    assert r[o["ranking"][0][0]] == 1.0


def test_legal_actions_are_accepted_and_listed_json_round_trips():
    g = robodrome.new_game("autoscooter", seed=5)
    seat = g.owing()[0]
    acts = g.legal_actions(seat)
    assert acts and g.legal_count(seat) == len(acts)
    h = g.clone()
    h.apply(seat, acts[-1])
    k = g.clone()
    k.apply_index(seat, len(acts) - 1)
    assert h.same_state(k) and not h.same_state(g)


@pytest.mark.parametrize("name", GAMES)
def test_an_illegal_action_raises_and_changes_nothing(name):
    g = _random_game(name, 7, 2) if name != "roborally" else robodrome.new_game(name, seed=7)
    assert g.decision() is not None
    before = g.clone()
    log = g.to_json()
    owing = g.owing()
    idle = [s for s in range(g.seats) if s not in owing]
    with pytest.raises(BadInput):
        g.apply(owing[0], {"type": "no such action"})
    with pytest.raises(IllegalAction) as e:
        g.apply_index(owing[0], 10**6)
    assert e.value.args[0] == "action_index"
    if idle:
        legal = g.legal_actions(owing[0])
        with pytest.raises(IllegalAction) as e:
            g.apply(idle[0], legal[0])
        assert isinstance(e.value.args[0], str) and e.value.args[1]
    with pytest.raises(BadInput):
        g.view(99)
    assert g.same_state(before) and g.to_json() == log
    assert issubclass(IllegalAction, RobodromeError) and issubclass(BadInput, RobodromeError)


def test_bad_setups_and_records_are_typed_errors():
    with pytest.raises(BadInput, match="unknown game"):
        robodrome.new_game("chess")
    with pytest.raises(BadInput):
        robodrome.make_setup("autoscooter", 99)
    with pytest.raises(BadInput):
        robodrome.replay("not json")
    g = robodrome.new_game("rps", seed=1)
    rec = json.loads(g.to_json())
    rec["log"] = [{"kind": "act", "seat": 0, "action": {"throw": "lizard"}}]
    with pytest.raises(ReplayError):
        robodrome.replay(rec)


@pytest.mark.parametrize("name", ["autoscooter", "bumping-bots", "rps"])
def test_determinize_keeps_what_the_seat_sees(name):
    g = _random_game(name, 11, 30)
    for seed in range(5):
        d = g.determinize(0, seed)
        assert d.view(0) == g.view(0)
        assert d.decision() == g.decision()


def _secret_differs(name, seed):
    """Two games equal up to seat 1's secret choice in a simultaneous decision: seat 1 plays two
    different legal actions while seat 0 still owes its own."""
    g = robodrome.new_game(name, seed=seed)
    rng = random.Random(seed)
    for _ in range(200):
        d = g.decision()
        if d is None:
            return None
        kind, owing = d
        if kind == "simultaneous" and 0 in owing and 1 in owing and g.legal_count(1) > 1:
            a, b = g.clone(), g.clone()
            a.apply_index(1, 0)
            b.apply_index(1, 1)  # the first two listed: of one kind (RoboRally: two programs)
            if not a.same_state(b):
                return a, b
        s = owing[0]
        g.apply_index(s, rng.randrange(g.legal_count(s)))
    return None


@pytest.mark.parametrize("name", ["autoscooter", "rps", "roborally"])
def test_observations_never_show_another_seats_secret(name):
    found = 0
    for seed in range(4):
        pair = _secret_differs(name, seed)
        if pair is None:
            continue
        a, b = pair
        found += 1
        assert a.view(0) == b.view(0)
        assert np.array_equal(a.observation(0), b.observation(0))
        assert np.array_equal(a.mask(0), b.mask(0))
        assert a.view(robodrome.SPECTATOR) == b.view(robodrome.SPECTATOR)
        # the difference is real: the omniscient view shows it
        assert a.view(robodrome.OMNISCIENT) != b.view(robodrome.OMNISCIENT)
    assert found


def test_observation_and_mask_shapes():
    g = robodrome.new_game("autoscooter", seed=1)
    o = g.observation(0)
    m = g.mask(0)
    assert o.shape == (robodrome.OBS_DIM["autoscooter"],) and o.dtype == np.float32
    assert m.shape == (robodrome.ACTIONS["autoscooter"],) and m.dtype == np.bool_
    assert m.sum() == g.legal_count(0)


def test_bots_play_and_a_python_bot_joins_a_tournament():
    from robodrome import bots
    g = robodrome.new_game("autoscooter", seed=2)
    a = bots.heuristic()(g, g.owing()[0])
    assert a in g.legal_actions(g.owing()[0])
    s = bots.search(simulations=8)(g, g.owing()[0])
    assert s in g.legal_actions(g.owing()[0])

    def first_legal():
        return lambda game, seat: game.legal_actions(seat)[0]

    res = bots.tournament("rps", {"python-first": first_legal, "random": bots.random}, games=6)
    assert res["games"]["python-first"] == 6
    assert res["wins"]["python-first"] + res["wins"]["random"] == 6
