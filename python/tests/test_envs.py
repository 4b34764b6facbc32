"""PettingZoo's and Gymnasium's own API checks on every game's environments."""
import pytest

pettingzoo = pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, parallel_api_test  # noqa: E402

from robodrome import envs  # noqa: E402

# RoboRally's flat space lists every program (up to ~15,000 actions a turn): its checks are
# kept to a few cycles.
FAST = ["autoscooter", "bumping-bots", "bumping-bots-championship", "rps"]


@pytest.mark.parametrize("game", FAST + ["roborally"])
def test_parallel_api(game):
    parallel_api_test(envs.parallel_env(game), num_cycles=30 if game != "roborally" else 2)


@pytest.mark.parametrize("game", FAST + ["roborally"])
def test_aec_api(game):
    api_test(envs.aec_env(game), num_cycles=30 if game != "roborally" else 3)


@pytest.mark.parametrize("game", FAST)
def test_gymnasium_env_checker(game):
    env = envs.RobodromeGymEnv(game, opponent="random")
    check_env(env, skip_render_check=True)


def test_gymnasium_registered_and_plays_to_the_end_against_heuristic():
    env = gymnasium.make("robodrome/autoscooter-v0", opponent="heuristic")
    obs, _ = env.reset(seed=3)
    done, steps, total = False, 0, 0.0
    while not done and steps < 10_000:
        mask = obs["action_mask"]
        obs, r, term, trunc, _ = env.step(int(mask.nonzero()[0][0]))
        total += r
        done = term or trunc
        steps += 1
    assert done and -1.0 <= total <= 1.0


def test_parallel_env_plays_a_whole_game_with_masks():
    import numpy as np
    env = envs.parallel_env("autoscooter")
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(10_000):
        if not env.agents:
            break
        acts = {}
        for a in env.agents:
            legal = obs[a]["action_mask"].nonzero()[0]
            acts[a] = int(rng.choice(legal)) if len(legal) else 0
        obs, rew, term, trunc, _ = env.step(acts)
    assert not env.agents and sorted(rew.values()) in ([-1.0, 1.0], [0.0, 0.0])
