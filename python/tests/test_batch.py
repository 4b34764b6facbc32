"""The batched simulator equals sequential stepping through the single-game API."""
import numpy as np
import pytest

import robodrome


@pytest.mark.parametrize("name", ["autoscooter", "bumping-bots", "rps"])
def test_batch_equals_sequential(name):
    seeds = list(range(10, 26))
    batch = robodrome.Batch(name, seeds)
    games = [robodrome.new_game(name, seed=s) for s in seeds]
    rng = np.random.default_rng(5)
    for step in range(60):
        obs, mask, rew, done = batch.observe()
        for i, g in enumerate(games):
            for s in range(g.seats):
                assert np.array_equal(obs[i, s], g.observation(s)), (step, i, s)
                assert np.array_equal(mask[i, s], g.mask(s)), (step, i, s)
            assert done[i] == (g.decision() is None)
            assert list(rew[i]) == g.rewards()
        acts = np.zeros((len(seeds), batch.seats), dtype=np.int64)
        for i, g in enumerate(games):
            for s in range(g.seats):
                legal = mask[i, s].nonzero()[0]
                acts[i, s] = rng.choice(legal) if len(legal) else -1
        errs = batch.step(acts)
        assert errs == [None] * len(seeds)
        # sequentially: each owing seat's index into the legal actions before the step
        for i, g in enumerate(games):
            owing = g.owing()
            chosen = [(s, g.legal_actions(s)[acts[i, s]]) for s in owing]
            for s, a in chosen:
                g.apply(s, a)
        for i, g in enumerate(games):
            assert batch.game(i).same_state(g), (step, i)


def test_a_bad_index_leaves_that_game_unchanged_and_others_step():
    batch = robodrome.Batch("autoscooter", [1, 2])
    before = [batch.game(0), batch.game(1)]
    acts = np.array([[10**6, 0], [0, 0]], dtype=np.int64)
    errs = batch.step(acts)
    assert errs[0] is not None and "not legal" in errs[0] and errs[1] is None
    assert batch.game(0).same_state(before[0])
    assert not batch.game(1).same_state(before[1])
    with pytest.raises(robodrome.BadInput):
        batch.step(np.zeros((3, 2), dtype=np.int64))


def test_reset_and_play_random():
    batch = robodrome.Batch("bumping-bots", [1, 2, 3, 4])
    n = batch.play_random(seed=9)
    assert n > 0
    _, _, _, done = batch.observe()
    assert done.all()
    batch.reset(0, 77)
    assert batch.game(0).same_state(robodrome.new_game("bumping-bots", seed=77))


def test_a_batched_game_saves_the_record_of_the_same_game_played_by_json():
    """The batch keeps each played index in the record; the save file writes every action's JSON
    by replaying it: the very file of the same game played action by action, and it replays."""
    import json

    b = robodrome.Batch("autoscooter", [4])
    g = robodrome.new_game("autoscooter", seed=4)
    rng = np.random.default_rng(1)
    for _ in range(40):
        _, mask, _, done = b.observe()
        if done[0]:
            break
        counts = b.legal_counts()
        assert (counts == mask.sum(axis=2)).all()
        acts = (rng.random(counts.shape) * np.maximum(counts, 1)).astype(np.int64)
        chosen = [(s, g.legal_actions(s)[acts[0, s]]) for s in g.owing()]
        assert b.step(acts) == [None]
        for s, a in chosen:
            g.apply(s, a)
    saved = b.game(0).to_json()
    assert len(json.loads(saved)["log"]) > 0
    assert json.loads(saved) == json.loads(g.to_json())
    assert robodrome.replay(saved).same_state(g)


def test_observe_overwrites_the_same_arrays():
    """The arrays are allocated once with the batch (docs/python.md "Batched simulation")."""
    b = robodrome.Batch("rps", [1, 2])
    first = b.observe()
    b.step(np.zeros((2, 2), dtype=np.int64))
    second = b.observe()
    assert all(x is y for x, y in zip(first, second))


@pytest.mark.parametrize("name", ["autoscooter", "bumping-bots"])
def test_step_observe_equals_step_then_observe(name):
    """One native call (step_observe) writes what step() then observe() write, into the same
    preallocated arrays; reset_done restarts finished games with the next seeds in game order
    and writes their rows."""
    seeds = list(range(30, 38))
    one = robodrome.Batch(name, seeds)
    two = robodrome.Batch(name, seeds)
    rng = np.random.default_rng(3)
    arrays = one.observe()
    two.observe()
    next_seed = 1000
    for step in range(150):
        counts = one.legal_counts()
        acts = (rng.random(counts.shape) * np.maximum(counts, 1)).astype(np.int64)
        got = one.step_observe(acts)
        assert all(x is y for x, y in zip(got, arrays))
        assert two.step(acts) == [None] * len(seeds)
        want = two.observe()
        assert not one.errors().any()
        for x, y in zip(got, want):
            assert np.array_equal(x, y), step
        assert np.array_equal(one.legal_counts(), two.legal_counts())
        if got[3].any():
            restarted = [int(i) for i in np.flatnonzero(got[3])]
            assert one.reset_done(next_seed) == len(restarted)
            for k, i in enumerate(restarted):
                two.reset(i, next_seed + k)
            next_seed += len(restarted)
            want = two.observe()
            for x, y in zip(arrays, want):
                assert np.array_equal(x, y), step
    for i in range(len(seeds)):
        assert one.game(i).same_state(two.game(i))


def test_step_observe_reports_a_refused_game_and_steps_the_others():
    b = robodrome.Batch("autoscooter", [1, 2])
    before = b.game(0)
    failed = b._b.step_observe(np.array([[10**6, 0], [0, 0]], dtype=np.int64))
    assert failed == 1
    assert list(b.errors()) == [1, 0]
    msgs = b.error_messages()
    assert msgs[0] is not None and "not legal" in msgs[0] and msgs[1] is None
    assert b.game(0).same_state(before)
    with pytest.raises(robodrome.BadInput):
        b.step_observe(np.zeros((3, 2), dtype=np.int64))


@pytest.mark.parametrize("name", ["autoscooter", "bumping-bots"])
def test_reset_done_restarts_the_game_of_each_seed(name):
    """reset_done starts finished games from the setup read once (Kind::starter): each is the
    game Game(name, setup, seed) starts from the JSON, with the seeds drawn as before."""
    batch = robodrome.Batch(name, [1, 2, 3])
    assert batch.play_random(seed=4) > 0
    assert batch.reset_done(500) == 3
    for i in range(3):
        assert batch.game(i).same_state(robodrome.new_game(name, seed=500 + i)), i
    assert batch.reset_done(900) == 0


@pytest.mark.parametrize("name", ["autoscooter", "bumping-bots"])
def test_the_thread_count_changes_nothing(name):
    """The batch cuts its games into contiguous chunks, one per thread (docs/python.md): 37
    games on 1, 2, 3 and 5 threads (uneven chunks of at least 8 games) give the same arrays,
    errors and games at every step, through step_observe and reset_done."""
    n = 37
    batches = [robodrome.Batch(name, range(n), threads=t) for t in (1, 2, 3, 5)]
    assert [b.threads for b in batches] == [1, 2, 3, 5]
    for b in batches:
        b.observe()
    rng = np.random.default_rng(11)
    seed = 1000
    for step in range(50):
        counts = batches[0].legal_counts()
        acts = (rng.random(counts.shape) * np.maximum(counts, 1)).astype(np.int64)
        if step == 7:
            acts[3, 0] = 10**6  # a refused step in one game
        results = [(b._b.step_observe(acts), [x.copy() for x in b._b.arrays()], b.errors().copy(),
                    b.legal_counts().copy())
                   for b in batches]
        (f0, a0, e0, c0) = results[0]
        assert (step != 7) or e0[3] == 1
        for f, arrays, e, c in results[1:]:
            assert f == f0
            assert all(np.array_equal(x, y) for x, y in zip(arrays, a0)), step
            assert np.array_equal(e, e0) and np.array_equal(c, c0), step
        restarted = {b.reset_done(seed) for b in batches}
        assert len(restarted) == 1
        seed += restarted.pop()
    for i in range(n):
        for b in batches[1:]:
            assert b.game(i).same_state(batches[0].game(i)), i


def test_a_batch_refuses_no_threads():
    with pytest.raises(robodrome.BadInput):
        robodrome.Batch("rps", range(4), threads=0)
