"""OpenSpiel games: every Robodrome game registered with pyspiel as ``python_robodrome_<name>``
(``-`` as ``_``). Import this module (or call ``register()``) and ``pyspiel.load_game(...)``.

Nodes: a simultaneous node where the rules are simultaneous (Decision::Simultaneous: every seat
that owes chooses at once; a seat that owes nothing has the one action 0, "pass"), a player
node where one seat decides mid-resolution, and ONE chance node, at the start, that draws the
game's seed among ``seeds`` equally likely outcomes. The rules' later draws (RoboRally's
shuffles and deals, RR-4.1, and option cards, RR-9; Bumping Bots' grid order and tuning cards,
BB-3; Autoscooter's lots, AS-1.3, happen at the start) are not chance nodes: the engine makes
them inside ``Game::new``/``apply`` from the generator in the state, and its interface has no
point where a draw waits (docs/python.md, "OpenSpiel", says exactly what that means). Actions
are the flat encoding (index into the seat's legal actions, in the engine's order).
"""

from __future__ import annotations

import json

import numpy as np
import pyspiel

from . import ACTIONS, Game, kinds, make_setup, new_game


def _short(name: str) -> str:
    return "python_robodrome_" + name.replace("-", "_")


def _game_class(name: str, info: dict):
    players_default = max(info["min_players"], min(2, info["max_players"]))
    # options: the lobby's options as JSON text ('{"laps": 1}'), "" for none
    params = {"players": players_default, "seeds": 16, "max_game_length": 100_000, "options": ""}
    gtype = pyspiel.GameType(
        short_name=_short(name),
        long_name=f"Robodrome {info['title']}",
        dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info["max_players"],
        min_num_players=info["min_players"],
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        provides_factored_observation_string=False,
        parameter_specification=params,
    )

    class RobodromeSpielGame(pyspiel.Game):
        def __init__(self, params=params):
            p = dict(params)
            self.players = int(p.get("players", players_default))
            self.seeds = int(p.get("seeds", 16))
            opts = str(p.get("options", "") or "")
            self.setup = make_setup(name, self.players, options=json.loads(opts) if opts else None)
            super().__init__(gtype, pyspiel.GameInfo(
                num_distinct_actions=ACTIONS.get(name, 1024),
                max_chance_outcomes=self.seeds,
                num_players=self.players,
                min_utility=-1.0, max_utility=1.0, utility_sum=None,
                max_game_length=int(p.get("max_game_length", 100_000))), p)

        def new_initial_state(self):
            return RobodromeSpielState(self)

    class RobodromeSpielState(pyspiel.State):
        def __init__(self, game):
            super().__init__(game)
            self._setup = json.dumps(game.setup)  # text: copied by reference when cloned
            self._seeds = game.seeds
            self._players = game.players
            self._g: Game | None = None

        def current_player(self):
            if self._g is None:
                return pyspiel.PlayerId.CHANCE
            d = self._g.decision()
            if d is None:
                return pyspiel.PlayerId.TERMINAL
            if d[0] == "one":
                return d[1][0]
            return pyspiel.PlayerId.SIMULTANEOUS

        def _legal_actions(self, player):
            if self._g is None or self._g.decision() is None:
                return []
            if player not in self._g.owing():
                return [0]  # pass
            return list(range(self._g.legal_count(player)))

        def chance_outcomes(self):
            p = 1.0 / self._seeds
            return [(s, p) for s in range(self._seeds)]

        def _apply_action(self, action):
            if self._g is None:
                self._g = new_game(name, json.loads(self._setup), int(action))
            else:
                self._g.apply_index(self.current_player(), int(action))

        def _apply_actions(self, actions):
            g = self._g
            owing = g.owing()
            chosen = [(s, g.legal_actions(s)[actions[s]]) for s in owing]
            for s, a in chosen:
                g.apply(s, a)

        def _action_to_string(self, player, action):
            if player == pyspiel.PlayerId.CHANCE:
                return f"seed {action}"
            return f"seat {player}: action {action}"

        def is_terminal(self):
            return self._g is not None and self._g.decision() is None

        def returns(self):
            if self._g is None or self._g.decision() is not None:
                return np.zeros(self._players)
            return np.array(self._g.rewards(), dtype=np.float64)

        def __str__(self):
            return "start" if self._g is None else repr(self._g)

    return gtype, RobodromeSpielGame


GAMES: dict[str, str] = {}


def register() -> dict[str, str]:
    """Register every game once; returns {robodrome name: pyspiel short name}."""
    if not GAMES:
        for info in kinds():
            gtype, cls = _game_class(info["name"], info)
            pyspiel.register_game(gtype, cls)
            GAMES[info["name"]] = gtype.short_name
    return GAMES


register()
