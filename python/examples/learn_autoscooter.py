"""A small learning agent on Autoscooter that beats `random`: a linear softmax policy over a
few features of each legal action (the plotted letter, the car's speed, how early the turn
number is), trained by REINFORCE with a running baseline against the random bot, on the CPU in
a few minutes. It sees only its seat's view (robodrome.Game.view(seat)) and legal actions.

    python python/examples/learn_autoscooter.py --games 3000 --out target/learn
    python python/examples/plot_curve.py target/learn/curve.json docs/python-learning-curve.svg

Writes the weights and the learning curve (curve.json); then plays 1,000 fixed-seed games
(seeds 1_000_000 …) against random, seats alternated, and prints the win rate.
"""
import argparse
import json
import os
import time

import numpy as np

import robodrome

LETTERS = [None] + [chr(ord("A") + i) for i in range(16)]
NF = len(LETTERS) * 4 + 4


def features(view, actions):
    """One row per legal action: letter x speed one-hot, and the turn number's place."""
    cars = {c["car"]: c for c in view["cars"]}
    f = np.zeros((len(actions), NF), dtype=np.float32)
    for i, a in enumerate(actions):
        if a.get("type") != "plot":
            f[i, -1] = 1.0
            continue
        c = cars.get(a["car"], {})
        speed = min(int(c.get("speed", 0)), 3)
        f[i, LETTERS.index(a.get("letter")) * 4 + speed] = 1.0
        used = len(c.get("used_numbers", []))
        f[i, -4] = a["number"] / 100.0
        f[i, -3] = used / 10.0
        f[i, -2] = 1.0
    return f


class Agent:
    def __init__(self, seed=0):
        self.w = np.zeros(NF, dtype=np.float64)
        self.rng = np.random.default_rng(seed)
        self.trace = []

    def act(self, game, seat, greedy=False):
        acts = game.legal_actions(seat)
        f = features(game.view(seat), acts)
        z = f @ self.w
        p = np.exp(z - z.max())
        p /= p.sum()
        i = int(np.argmax(p)) if greedy else int(self.rng.choice(len(acts), p=p))
        if not greedy:
            self.trace.append(f[i] - p @ f)  # the gradient of log p(i)
        return acts[i]


def play(agent, seed, seat, greedy=False):
    g = robodrome.new_game("autoscooter", seed=seed)
    bot = 0
    while g.decision() is not None:
        for s in g.owing():
            if g.decision() is None or s not in g.owing():
                continue
            if s == seat:
                g.apply(s, agent.act(g, s, greedy))
            else:
                bot += 1
                g.apply(s, g.sample_action(s, seed * 1000 + bot))
    return g.rewards()[seat]


def train(games, lr, out):
    agent = Agent(1)
    base, curve, window = 0.0, [], []
    t0 = time.time()
    for k in range(games):
        agent.trace.clear()
        r = play(agent, k, k % 2)
        adv = r - base
        base += 0.02 * (r - base)
        for g in agent.trace:
            agent.w += lr * adv * g
        window.append(r > 0)
        if (k + 1) % 100 == 0:
            curve.append({"games": k + 1, "win_rate": float(np.mean(window)), "seconds": time.time() - t0})
            print(f"{k + 1} games: win rate {np.mean(window):.3f} over the last 100 ({time.time() - t0:.0f} s)")
            window.clear()
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "curve.json"), "w") as f:
        json.dump(curve, f, indent=1)
    np.save(os.path.join(out, "weights.npy"), agent.w)
    return agent


def evaluate(agent, n=1000, greedy=False):
    wins = draws = 0
    for k in range(n):
        r = play(agent, 1_000_000 + k, k % 2, greedy=greedy)
        wins += r > 0
        draws += r == 0
    return wins, draws


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--out", default="target/learn")
    ap.add_argument("--eval", type=int, default=1000)
    ap.add_argument("--weights", help="evaluate these weights (weights.npy) without training")
    a = ap.parse_args()
    if a.weights:
        agent = Agent(1)
        agent.w = np.load(a.weights)
    else:
        agent = train(a.games, a.lr, a.out)
    for greedy in (False, True):
        agent.rng = np.random.default_rng(2024)  # the evaluation's own draws: reproducible
        wins, draws = evaluate(agent, a.eval, greedy)
        print(f"{'greedy' if greedy else 'learned'} policy vs random over {a.eval} fixed-seed games: "
              f"{wins} wins, {draws} draws, win rate {wins / a.eval:.3f}")
    base = Agent(2)  # untrained: uniform over the legal actions, i.e. random
    bw, bd = evaluate(base, a.eval, greedy=False)
    print(f"random vs random, same seeds: {bw} wins, {bd} draws, win rate {bw / a.eval:.3f}")
