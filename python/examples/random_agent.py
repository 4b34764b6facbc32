"""A random agent on any Robodrome game through the PettingZoo Parallel environment.

    python python/examples/random_agent.py autoscooter 10
"""
import sys

import numpy as np

from robodrome import envs


def main(game="autoscooter", games=10):
    env = envs.parallel_env(game)
    rng = np.random.default_rng(0)
    totals = {a: 0.0 for a in env.possible_agents}
    for k in range(games):
        obs, _ = env.reset(seed=k)
        while env.agents:
            acts = {}
            for a in env.agents:
                legal = np.flatnonzero(obs[a]["action_mask"])
                acts[a] = int(rng.choice(legal)) if len(legal) else 0
            obs, rew, term, trunc, _ = env.step(acts)
            for a, r in rew.items():
                totals[a] += r
    print(f"{game}: {games} random games, total rewards {totals}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "autoscooter", int(sys.argv[2]) if len(sys.argv) > 2 else 10)
