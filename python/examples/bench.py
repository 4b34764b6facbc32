"""Steps per second through Python against the native engine, side by side in one run
(docs/benchmarks.md "Python", docs/python.md).

    python python/examples/bench.py [seconds-per-measure] [games...]

Every measure is given twice: per second of wall clock, and per second of CPU time of the
process (every thread; time.process_time) — on a shared, loaded machine the wall clock of a
two-thread measure depends on what else runs, its CPU time much less.

native: the engine's own typed random driver (engine::play_random through AnyGame::play_random:
no JSON, no Python) on the very setup the Python side plays (2 players, the game's defaults),
one thread; and the same on every core (rayon). It samples one action per call and writes
no observation, no mask, no count: less work than a batch step. native same work: the same
work as the batch's step_observe and reset_done (every owing seat's legal actions counted, a
random index applied, every seat's observation, mask row, count and reward written into
buffers, finished games restarted) in a Rust loop with no Python between steps, 64 games in
contiguous chunks on 1 thread and on every core (_native.native_same_work). bench: `robodrome bench`'s driver (Kind::bench,
its own setup, e.g. 8 cars), for reference. python single: Game.apply_index with a random legal
index drawn in Python, one game after another. batched x64: Batch.observe (observations, masks,
rewards of every seat of 64 games, written in place) then Batch.step with random legal indices
drawn by numpy from the masks, rayon on every core; and the same in one call per step
(Batch.step_observe, finished games restarted by Batch.reset_done), with and without
observations and masks (obs_dim=0, actions=0: the legal counts only). PettingZoo AEC: a whole AEC step of our
environment (env.last(): observation and mask; a random legal action from the mask; env.step)
against PettingZoo's own Connect Four (needs pygame) in the same run, with three choices of
the action, the same for both: numpy's Generator.choice over the legal indices, a cheaper
random draw (Python's random() into np.flatnonzero of the mask), the first legal action.
"""
import os
import random
import sys
import time

import numpy as np

import robodrome
from robodrome import _native, envs

SECS = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
GAMES = sys.argv[2:] or ["autoscooter", "bumping-bots"]


class Clock:
    def __init__(self):
        self.w, self.c = time.perf_counter(), time.process_time()

    def done(self):
        return time.perf_counter() - self.w >= SECS

    def rates(self, n):
        return n / (time.perf_counter() - self.w), n / (time.process_time() - self.c)


def bench(name):
    games, n, t = 1, 0, 0.0
    while t < SECS:
        label, n, t = _native.native_bench(name, games)
        games *= 2
    return label, n / t


def native(name, parallel=False):
    setup = robodrome._default_setup(name, None)
    games = 4
    while True:
        c = Clock()
        n, _ = _native.native_random(name, setup, list(range(games)), parallel)
        if c.done():
            return c.rates(n)
        games *= 2


def same_work(name, threads, n_games=64):
    """The same-work native baseline (_native.native_same_work): what step_observe and
    reset_done do per game and step (random legal indices drawn natively, applied; every
    seat's observation, mask row, legal count and reward written into buffers; finished games
    restarted), in a Rust loop with no Python between steps, the games cut into `threads`
    contiguous chunks, one thread each."""
    setup = robodrome._default_setup(name, None)
    d, a = robodrome.OBS_DIM.get(name, 256), robodrome.ACTIONS.get(name, 1024)
    steps = 16
    while True:
        c = Clock()
        n, _ = _native.native_same_work(name, setup, n_games, steps, d, a, threads)
        if c.done():
            return c.rates(n)
        steps *= 2


def single(name):
    rng = np.random.default_rng(0)
    n, seed, c = 0, 0, Clock()
    while not c.done():
        g = robodrome.new_game(name, seed=seed)
        seed += 1
        while g.decision() is not None:
            for s in g.owing():
                if g.decision() is not None and s in g.owing():
                    g.apply_index(s, int(rng.integers(g.legal_count(s))))
                    n += 1
    return c.rates(n)


def batched_one_call(name, n_games=64, **kw):
    """Batch.step_observe: each game steps and writes its rows of the preallocated arrays in
    one native call (rayon, no GIL); finished games restarted natively (reset_done); the
    random legal indices drawn by numpy from the legal counts. With obs_dim=0, actions=0: no
    observations and no mask rows written (the counts only)."""
    b = robodrome.Batch(name, range(n_games), **kw)
    rng = np.random.default_rng(0)
    steps, seed, c = 0, n_games, Clock()
    b.observe()
    counts = b.legal_counts()  # the batch's own array, rewritten by every step_observe
    acts = np.zeros(counts.shape, dtype=np.int64)
    draw = np.empty(counts.shape)
    while not c.done():
        rng.random(out=draw)
        np.multiply(draw, np.maximum(counts, 1), out=draw)
        acts[...] = draw
        steps += int(np.count_nonzero(counts))  # one action per owing seat
        _, _, _, done = b.step_observe(acts)
        if done.any():
            seed += b.reset_done(seed)
    return c.rates(steps)


def batched(name, n_games=64):
    b = robodrome.Batch(name, range(n_games))
    rng = np.random.default_rng(0)
    steps, seed, c = 0, n_games, Clock()
    while not c.done():
        _, mask, _, done = b.observe()
        for i in np.flatnonzero(done):
            b.reset(int(i), seed)
            seed += 1
        counts = b.legal_counts()  # = mask.sum(axis=2), without summing
        acts = (rng.random(counts.shape) * np.maximum(counts, 1)).astype(np.int64)
        steps += int((counts > 0).sum())  # one action per owing seat
        b.step(acts)
    return c.rates(steps)


def aec(env, first=False, cheap=False):
    """Random legal actions from the mask (the method of the first round's figures); with
    `first`, the first legal action (argmax of the mask): the same cheap choice for both
    environments, so that the choice's own cost (numpy's, the same for both) weighs less;
    with `cheap`, a random legal action drawn without numpy's Generator.choice (its call
    alone costs 4-6 us): np.flatnonzero of the mask indexed by Python's random()."""
    rng = np.random.default_rng(0)
    rand = random.Random(0).random
    n, k, c = 0, 0, Clock()
    while not c.done():
        env.reset(seed=k)
        k += 1
        for agent in env.agent_iter():
            obs, r, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            if first:
                env.step(int(obs["action_mask"].argmax()))
            elif cheap:
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[int(rand() * len(legal))]))
            else:
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            n += 1
    return c.rates(n)


def show(label, rates, unit="actions/s"):
    print(f"{label}: {rates[0]:,.0f} {unit} wall, {rates[1]:,.0f} per CPU-second")


def main():
    print(f"cores: {os.cpu_count()}, {SECS:g} s per measure, load average "
          f"{os.getloadavg()[0]:.1f}")
    c4 = c4f = c4c = None
    try:
        from pettingzoo.classic import connect_four_v3
        c4 = aec(connect_four_v3.env())
        show("connect_four_v3: PettingZoo AEC env", c4, "steps/s")
        c4c = aec(connect_four_v3.env(), cheap=True)
        show("connect_four_v3: PettingZoo AEC env, random legal action (cheap draw)", c4c,
             "steps/s")
        c4f = aec(connect_four_v3.env(), first=True)
        show("connect_four_v3: PettingZoo AEC env, first legal action", c4f, "steps/s")
    except ImportError as e:
        print(f"connect_four_v3: not measured ({e})")
    for name in GAMES:
        label, b = bench(name)
        print(f"{name}: bench {b:,.0f} actions/s wall ({label})")
        nat = native(name)
        show(f"{name}: native, 1 thread", nat)
        show(f"{name}: native, every core", native(name, parallel=True))
        same1 = same_work(name, 1)
        show(f"{name}: native same work x64, 1 thread", same1)
        same = same_work(name, os.cpu_count() or 1)
        show(f"{name}: native same work x64, every core", same)
        show(f"{name}: python single game", single(name))
        bat = batched(name)
        show(f"{name}: python batched x64 (observe + step)", bat)
        print(f"{name}: native 1 thread / batched = {nat[0] / bat[0]:.2f}x wall, "
              f"{nat[1] / bat[1]:.2f}x per CPU-second")
        one = batched_one_call(name)
        show(f"{name}: python batched x64 (step_observe)", one)
        print(f"{name}: native 1 thread / batched step_observe = {nat[0] / one[0]:.2f}x wall, "
              f"{nat[1] / one[1]:.2f}x per CPU-second")
        bare = batched_one_call(name, obs_dim=0, actions=0)
        show(f"{name}: python batched x64 (step_observe, no observations, no masks)", bare)
        print(f"{name}: native same work (every core) / batched step_observe = "
              f"{same[0] / one[0]:.2f}x wall, {same[1] / one[1]:.2f}x per CPU-second")
        print(f"{name}: native 1 thread / batched without observations = "
              f"{nat[0] / bare[0]:.2f}x wall, {nat[1] / bare[1]:.2f}x per CPU-second")
        a = aec(envs.aec_env(name))
        show(f"{name}: PettingZoo AEC env", a, "steps/s")
        if c4:
            print(f"{name}: AEC env / Connect Four = {a[0] / c4[0]:.1f}x wall, "
                  f"{a[1] / c4[1]:.1f}x per CPU-second")
        ac = aec(envs.aec_env(name), cheap=True)
        show(f"{name}: PettingZoo AEC env, random legal action (cheap draw)", ac, "steps/s")
        if c4c:
            print(f"{name}: AEC env / Connect Four, cheap random draw = {ac[0] / c4c[0]:.1f}x "
                  f"wall, {ac[1] / c4c[1]:.1f}x per CPU-second")
        af = aec(envs.aec_env(name), first=True)
        show(f"{name}: PettingZoo AEC env, first legal action", af, "steps/s")
        if c4f:
            print(f"{name}: AEC env / Connect Four, first legal action = {af[0] / c4f[0]:.1f}x "
                  f"wall, {af[1] / c4f[1]:.1f}x per CPU-second")
    if c4:  # Connect Four again at the end: the load may have changed during the run
        show("connect_four_v3: PettingZoo AEC env (again)", aec(connect_four_v3.env()), "steps/s")


if __name__ == "__main__":
    main()
