"""Steps per second through Python against the native engine, in one run (docs/benchmarks.md).

    python python/examples/bench.py [seconds-per-measure]

native: the engine's own random-game driver (Kind::bench: typed actions, no JSON, one thread;
its setup is `robodrome bench`'s). python single: Game.apply_index with a random legal index
chosen in Python, one game after another (2 players, the game's defaults). batched: Batch.step
on 64 games with random legal indices from numpy over the masks of Batch.observe (rayon on
every core). PettingZoo AEC: our AEC env against PettingZoo's Connect Four (needs pygame),
random legal actions from the mask, in the same run.
"""
import os
import sys
import time

import numpy as np

import robodrome
from robodrome import _native, envs

SECS = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0


def native(name):
    games, n, t = 1, 0, 0.0
    while t < SECS:
        label, n, t = _native.native_bench(name, games)
        games *= 2
    return label, n / t


def single(name):
    rng = np.random.default_rng(0)
    n, seed, t0 = 0, 0, time.perf_counter()
    while time.perf_counter() - t0 < SECS:
        g = robodrome.new_game(name, seed=seed)
        seed += 1
        while g.decision() is not None:
            for s in g.owing():
                if g.decision() is not None and s in g.owing():
                    g.apply_index(s, int(rng.integers(g.legal_count(s))))
                    n += 1
    return n / (time.perf_counter() - t0)


def batched(name, n_games=64):
    b = robodrome.Batch(name, range(n_games))
    rng = np.random.default_rng(0)
    steps, seed, t0 = 0, n_games, time.perf_counter()
    while time.perf_counter() - t0 < SECS:
        _, mask, _, done = b.observe()
        for i in np.flatnonzero(done):
            b.reset(int(i), seed)
            seed += 1
        counts = mask.sum(axis=2)
        acts = (rng.random(counts.shape) * np.maximum(counts, 1)).astype(np.int64)
        steps += int((counts > 0).sum())  # one action per owing seat
        b.step(acts)
    return steps / (time.perf_counter() - t0)


def aec(env):
    rng = np.random.default_rng(0)
    n, k, t0 = 0, 0, time.perf_counter()
    while time.perf_counter() - t0 < SECS:
        env.reset(seed=k)
        k += 1
        for agent in env.agent_iter():
            obs, r, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            n += 1
    return n / (time.perf_counter() - t0)


def main():
    print(f"cores: {os.cpu_count()}, {SECS:.0f} s per measure")
    for name in ("autoscooter", "bumping-bots"):
        label, nat = native(name)
        print(f"{name}: native {nat:,.0f} actions/s ({label})")
        print(f"{name}: python single game {single(name):,.0f} actions/s")
        print(f"{name}: python batched x64 {batched(name):,.0f} actions/s")
        print(f"{name}: PettingZoo AEC env {aec(envs.aec_env(name)):,.0f} steps/s")
    try:
        from pettingzoo.classic import connect_four_v3
        print(f"connect_four_v3: PettingZoo AEC env {aec(connect_four_v3.env()):,.0f} steps/s")
    except ImportError as e:
        print(f"connect_four_v3: not measured ({e})")


if __name__ == "__main__":
    main()
