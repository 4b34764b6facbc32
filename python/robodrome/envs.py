"""PettingZoo (Parallel and AEC) and Gymnasium environments for every Robodrome game.

Actions are the flat encoding (docs/python.md): Discrete(ACTIONS[game]), index i is the i-th of
the seat's legal actions in the engine's order; an index past the end is taken modulo the
number of legal actions, so that every index of the space is playable (the mask marks the
canonical ones). Observations are Dict(observation=Box(OBS_DIM), action_mask=Box(ACTIONS)), the
observation the seat's own view only. Rewards come at the end (robodrome's rewards: +1 alone
first … -1 alone last).
"""

from __future__ import annotations

import functools
from typing import Any, Optional

import numpy as np

from . import ACTIONS, OBS_DIM, Game, new_game
from .bots import RobodromeBot

try:
    import gymnasium
    from gymnasium import spaces
except ImportError:  # pragma: no cover
    gymnasium = None

LIMIT = 1e6


def _obs(game: Game, seat: int, dim: int, size: int) -> dict:
    # one native call: the view's numbers (clipped to ±LIMIT) and the int8 mask
    o, m = game._g.obs_mask(seat, dim, size)
    return {"observation": o, "action_mask": m}


def _spaces(dim: int, size: int):
    obs = spaces.Dict({
        "observation": spaces.Box(-LIMIT, LIMIT, (dim,), np.float32),
        "action_mask": spaces.Box(0, 1, (size,), np.int8),
    })
    return obs, spaces.Discrete(size)


def _play_index(game: Game, seat: int, index: int) -> Optional[int]:
    """Play the index-th legal action (modulo their number; nothing if none): one native call.
    Returns the first seat that owes a decision next, None when the game is over."""
    return game._g.play_index_mod(seat, int(index))


try:
    from pettingzoo import AECEnv, ParallelEnv
    from pettingzoo.utils import agent_selector
except ImportError:  # pragma: no cover
    AECEnv = ParallelEnv = object


class RobodromeParallelEnv(ParallelEnv):
    """Every seat that owes a decision acts in the same step (simultaneous secret moves); the
    actions of seats that owe nothing are ignored."""

    metadata = {"name": "robodrome_parallel_v0", "render_modes": []}

    def __init__(self, game: str = "autoscooter", players: int = 2, setup: Optional[dict] = None,
                 max_steps: int = 100_000):
        self.game_name = game
        self.players = players
        self.setup = setup
        self.max_steps = max_steps
        self.possible_agents = [f"seat_{i}" for i in range(players)]
        self.dim = OBS_DIM.get(game, 256)
        self.size = ACTIONS.get(game, 1024)
        self._obs_space, self._act_space = _spaces(self.dim, self.size)
        self.game: Optional[Game] = None
        self.agents: list[str] = []

    def observation_space(self, agent):
        return self._obs_space

    def action_space(self, agent):
        return self._act_space

    def _observe(self):
        return {a: _obs(self.game, int(a[5:]), self.dim, self.size) for a in self.agents}

    def reset(self, seed=None, options=None):
        self.game = new_game(self.game_name, self.setup, 0 if seed is None else int(seed), self.players)
        self.agents = list(self.possible_agents)
        self.steps = 0
        return self._observe(), {a: {} for a in self.agents}

    def step(self, actions):
        g = self.game
        for seat in g.owing():
            a = actions.get(f"seat_{seat}")
            if a is not None and g.decision() is not None:
                _play_index(g, seat, a)
        self.steps += 1
        over = g.decision() is None
        trunc = not over and self.steps >= self.max_steps
        r = g.rewards() if over else [0.0] * g.seats
        obs = self._observe()
        rewards = {a: float(r[int(a[5:])]) for a in self.agents}
        terms = {a: over for a in self.agents}
        truncs = {a: trunc for a in self.agents}
        infos = {a: {} for a in self.agents}
        if over or trunc:
            self.agents = []
        return obs, rewards, terms, truncs, infos

    def render(self):
        return None

    def close(self):
        pass


class RobodromeAECEnv(AECEnv):
    """One seat at a time: the seats that owe a decision act in seat order (a simultaneous
    decision's choices stay secret: each seat observes only its own view)."""

    metadata = {"name": "robodrome_aec_v0", "render_modes": [], "is_parallelizable": True}

    def __init__(self, game: str = "autoscooter", players: int = 2, setup: Optional[dict] = None):
        super().__init__()
        self.game_name = game
        self.players = players
        self.setup = setup
        self.possible_agents = [f"seat_{i}" for i in range(players)]
        self.dim = OBS_DIM.get(game, 256)
        self.size = ACTIONS.get(game, 1024)
        self._obs_space, self._act_space = _spaces(self.dim, self.size)
        self.game: Optional[Game] = None
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}

    def observation_space(self, agent):
        return self._obs_space

    def action_space(self, agent):
        return self._act_space

    def observe(self, agent):
        o, m = self._g.obs_mask(self._seat[agent], self.dim, self.size)
        return {"observation": o, "action_mask": m}

    def last(self, observe: bool = True):
        # PettingZoo's AECEnv.last, with the observation's native call inlined (one Python
        # call less per step: docs/benchmarks.md "Python")
        agent = self.agent_selection
        obs = None
        if observe:
            o, m = self._g.obs_mask(self._seat[agent], self.dim, self.size)
            obs = {"observation": o, "action_mask": m}
        return (obs, self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def _select(self):
        owing = self.game.owing()
        if owing:
            self.agent_selection = f"seat_{owing[0]}"

    def reset(self, seed=None, options=None):
        self.game = new_game(self.game_name, self.setup, 0 if seed is None else int(seed), self.players)
        self._g = self.game._g
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._select()

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        # one native call: plays the index (modulo the legal count), returns the next seat
        nxt = self._g.play_index_mod(self._seat[agent], int(action))
        if nxt is None:
            r = self.game.rewards()
            for a in self.agents:
                self.rewards[a] = float(r[int(a[5:])])
                self.terminations[a] = True
            self._accumulate_rewards()
            # every terminated agent is removed through _was_dead_step, in seat order
            self.agent_selection = self.agents[0]
        else:
            # rewards stay 0 until the end (set once, above): nothing to clear per step
            self.agent_selection = self.possible_agents[nxt]

    def render(self):
        return None

    def close(self):
        pass


def parallel_env(game: str = "autoscooter", **kw) -> RobodromeParallelEnv:
    return RobodromeParallelEnv(game, **kw)


def aec_env(game: str = "autoscooter", **kw) -> RobodromeAECEnv:
    return RobodromeAECEnv(game, **kw)


class RobodromeGymEnv(gymnasium.Env if gymnasium else object):
    """One seat learns; the other seats are played by a Robodrome bot (`opponent`: random,
    heuristic, search:N)."""

    metadata = {"render_modes": []}

    def __init__(self, game: str = "autoscooter", players: int = 2, seat: int = 0,
                 opponent: str = "random", setup: Optional[dict] = None):
        self.game_name = game
        self.players = players
        self.seat = seat
        self.opponent = opponent
        self.setup = setup
        self.dim = OBS_DIM.get(game, 256)
        self.size = ACTIONS.get(game, 1024)
        self.observation_space, self.action_space = _spaces(self.dim, self.size)
        self.game: Optional[Game] = None
        self._seed = 0

    def _others(self):
        g = self.game
        while g.decision() is not None and self.seat not in g.owing():
            for s in g.owing():
                if s != self.seat and g.decision() is not None and s in g.owing():
                    self._seed += 1
                    g.apply(s, g.bot_action(self.opponent, s, self._seed))

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        self._seed = 0 if seed is None else int(seed) * 7919
        s = int(self.np_random.integers(0, 2**31)) if seed is None else int(seed)
        self.game = new_game(self.game_name, self.setup, s, self.players)
        self._others()
        return _obs(self.game, self.seat, self.dim, self.size), {}

    def step(self, action):
        g = self.game
        # in a simultaneous decision the bots choose first, from their own views: secret
        for s in g.owing():
            if s != self.seat and s in g.owing():
                self._seed += 1
                g.apply(s, g.bot_action(self.opponent, s, self._seed))
        if self.seat in g.owing():
            _play_index(g, self.seat, action)
        self._others()
        over = g.decision() is None
        r = float(g.rewards()[self.seat]) if over else 0.0
        return _obs(g, self.seat, self.dim, self.size), r, over, False, {}


if gymnasium is not None:
    for _name in ACTIONS:
        gymnasium.register(id=f"robodrome/{_name}-v0", entry_point=RobodromeGymEnv,
                           kwargs={"game": _name})
