"""Robodrome's games for Python: RoboRally 2005, Autoscooter, Bumping Bots (and the toy game).

Every game comes from the Rust workspace's registry through one code path (``robodrome._native``);
this package decides no rule. See docs/python.md.
"""

from __future__ import annotations

import functools
import json
from typing import Any, Optional

from . import _native
from ._native import BadInput, IllegalAction, ReplayError, RobodromeError

__all__ = [
    "Game", "new_game", "replay", "from_json", "kinds", "make_setup", "run_scenario",
    "Batch", "RobodromeError", "BadInput", "IllegalAction", "ReplayError",
    "SPECTATOR", "OMNISCIENT", "ACTIONS", "OBS_DIM", "FACTORED_HEADS", "WILD_CAR", "NO_LETTER",
]

SPECTATOR = -1
OMNISCIENT = -2

#: Autoscooter's factored plot (autoscooter::encoding): car (8 ids, then the wild car), the
#: row of the car's column on the sheet (the turn number), the letter (A..P, then none).
FACTORED_HEADS = (9, 11, 17)
WILD_CAR = 8
NO_LETTER = 16

#: The flat action space of each game: index i is the i-th of ``legal_actions(seat)`` (the
#: engine's order); the sizes bound the longest list (docs/python.md).
ACTIONS = {"autoscooter": 1024, "roborally": 32768, "bumping-bots": 64,
           "bumping-bots-championship": 64, "rps": 3}
#: The length of the generic observation vector of each game (docs/python.md).
OBS_DIM = {"autoscooter": 256, "roborally": 512, "bumping-bots": 256,
           "bumping-bots-championship": 256, "rps": 32}


def kinds() -> list[dict]:
    """The registered games: name, title, seat range, boards, variants, options."""
    return json.loads(_native.kinds_json())


def make_setup(name: str, players: int, board: Optional[str] = None,
               variants: Optional[dict] = None, options: Optional[dict] = None) -> dict:
    """A checked setup, as the lobby builds it (raises BadInput)."""
    text = _native.make_setup(name, players, board,
                              None if variants is None else json.dumps(variants),
                              None if options is None else json.dumps(options))
    return json.loads(text)


class Game:
    """A running game. Actions, views, events and outcomes are plain JSON-like Python values."""

    __slots__ = ("_g",)

    def __init__(self, native: "_native.Game"):
        self._g = native

    @property
    def name(self) -> str:
        return self._g.name

    @property
    def seats(self) -> int:
        return self._g.seats

    @property
    def seed(self) -> int:
        return self._g.seed

    def decision(self) -> Optional[tuple[str, list[int]]]:
        """None when over, else ("one", [seat]) or ("simultaneous", [seats that still owe])."""
        return self._g.decision()

    def owing(self) -> list[int]:
        d = self._g.decision()
        return [] if d is None else list(d[1])

    def legal_actions(self, seat: int) -> list[Any]:
        return json.loads(self._g.legal_actions_json(seat))

    def apply(self, seat: int, action: Any) -> list[Any]:
        """Apply an action; returns the events. Raises IllegalAction / BadInput, state unchanged."""
        return json.loads(self._g.apply_json(seat, json.dumps(action)))

    def apply_index(self, seat: int, index: int) -> None:
        """Apply the index-th of legal_actions(seat) (the flat encoding)."""
        self._g.apply_index(seat, int(index))

    def time_up(self) -> list[Any]:
        return json.loads(self._g.time_up())

    def view(self, seat: int) -> Any:
        """The view of a seat (SPECTATOR, OMNISCIENT for the others): only what it may see."""
        return json.loads(self._g.view_json(seat))

    def static(self) -> Any:
        return json.loads(self._g.static_json())

    def outcome(self) -> Optional[dict]:
        o = self._g.outcome_json()
        return None if o is None else json.loads(o)

    def rewards(self) -> list[float]:
        return list(self._g.rewards())

    def clone(self) -> "Game":
        return Game(self._g.clone())

    def determinize(self, seat: int, seed: int) -> "Game":
        return Game(self._g.determinize(seat, seed))

    def sample_action(self, seat: int, seed: int) -> Any:
        a = self._g.sample_action_json(seat, seed)
        return None if a is None else json.loads(a)

    def bot_action(self, spec: str, seat: int, seed: int = 0, max_ms: Optional[int] = None) -> Any:
        a = self._g.bot_action_json(spec, seat, seed, max_ms)
        return None if a is None else json.loads(a)

    def observation(self, seat: int, dim: Optional[int] = None):
        return self._g.observation(seat, dim or OBS_DIM.get(self.name, 256))

    def mask(self, seat: int, size: Optional[int] = None):
        return self._g.mask(seat, size or ACTIONS.get(self.name, 1024))

    def legal_count(self, seat: int) -> int:
        return self._g.legal_count(seat)

    def factored_masks(self, seat: int):
        """Autoscooter's factored plot (docs/python.md "Encodings"): masks over the heads
        FACTORED_HEADS = (car 9, row 11, letter 17): ``(car[9], rows[9, 11], letters[9, 17])``,
        bool; the rows and letters of car c are ``rows[c]`` and ``letters[c]``. BadInput for
        another game."""
        return self._g.factored_masks(seat)

    def apply_factored(self, seat: int, car: int, row: int, letter: int) -> None:
        """Plot car `car` (WILD_CAR = 8: the wild car) with the number of its sheet row `row`
        and letter `letter` (0..15 = A..P, NO_LETTER = 16). IllegalAction if the rules refuse
        it (a masked-out choice), BadInput out of range: nothing changed."""
        self._g.apply_factored(seat, int(car), int(row), int(letter))

    def __copy__(self) -> "Game":
        return Game(self._g.clone())

    def __deepcopy__(self, memo) -> "Game":
        return Game(self._g.clone())

    def same_state(self, other: "Game") -> bool:
        return self._g.same_state(other._g)

    def to_json(self) -> str:
        return self._g.to_json()

    def __repr__(self) -> str:
        return f"<robodrome.Game {self.name} seats={self.seats} decision={self.decision()}>"


def new_game(name: str, setup: Optional[dict] = None, seed: int = 0, players: Optional[int] = None) -> Game:
    """A new game. `setup` as make_setup returns it; by default the game's own for `players`
    (default: the smallest table of at least two)."""
    text = _default_setup(name, players) if setup is None else json.dumps(setup)
    return Game(_native.Game(name, text, seed))


@functools.lru_cache(maxsize=64)
def _default_setup(name: str, players: Optional[int]) -> str:
    """The game's own setup for `players` (JSON text), built once per game and table size."""
    info = next((k for k in kinds() if k["name"] == name), None)
    if info is None:
        raise BadInput(f"unknown game {name!r} (known: {', '.join(k['name'] for k in kinds())})")
    n = players or max(info["min_players"], min(2, info["max_players"]))
    return json.dumps(make_setup(name, n))


def replay(record: Any) -> Game:
    """Replay a save file: a dict or JSON text {"game", "setup", "seed", "log"}."""
    text = record if isinstance(record, str) else json.dumps(record)
    return Game(_native.replay(text))


from_json = replay


def run_scenario(text_or_path: str, view: Optional[int] = None) -> tuple[dict, int]:
    """Run a scenario file (docs/scenarios.md): (the document robodrome scenario prints, exit)."""
    text = text_or_path
    if not text_or_path.lstrip().startswith("{"):
        with open(text_or_path, encoding="utf-8") as f:
            text = f.read()
    out, code = _native.run_scenario(text, view)
    return json.loads(out), code


class Batch:
    """N games of one kind stepped together on every core, the GIL released (docs/python.md)."""

    def __init__(self, name: str, seeds, setup: Optional[dict] = None, players: Optional[int] = None,
                 obs_dim: Optional[int] = None, actions: Optional[int] = None,
                 threads: Optional[int] = None):
        if setup is None:
            setup = new_game(name, None, 0, players)._g.to_json()
            setup = json.loads(setup)["setup"]
        self.name = name
        # 0 is allowed for both: no observations written (obs_dim=0), no mask rows (actions=0):
        # the flat mask is always its first legal_counts() entries (docs/python.md)
        self.obs_dim = OBS_DIM.get(name, 256) if obs_dim is None else obs_dim
        self.actions = ACTIONS.get(name, 1024) if actions is None else actions
        # threads: how many threads a call uses at most (the calling one included; default
        # RAYON_NUM_THREADS if set, else every core), each playing a contiguous chunk of games
        self._b = _native.Batch(name, json.dumps(setup), [int(s) for s in seeds], self.obs_dim,
                                self.actions, threads)
        self._arrays = None

    def __len__(self) -> int:
        return len(self._b)

    @property
    def seats(self) -> int:
        return self._b.seats

    @property
    def threads(self) -> int:
        return self._b.threads

    def observe(self):
        """(obs[N,seats,D] f32, mask[N,seats,A] bool, rewards[N,seats] f32, done[N] bool): the
        batch's own arrays, allocated once and overwritten by every call (copy what you keep)."""
        return self._b.observe()

    def legal_counts(self):
        """int64 [N, seats]: each seat's number of legal actions at the last observe() (0: it
        owes nothing), the true entries of its mask row (the batch's own array, overwritten)."""
        return self._b.legal_counts()

    def step(self, actions) -> list[Optional[str]]:
        """actions: int64 array [N, seats] of flat indices; entries of seats that owe nothing
        are ignored. Returns per game None or the error that left it unchanged."""
        import numpy as np
        return self._b.step(np.ascontiguousarray(actions, dtype=np.int64))

    def step_observe(self, actions):
        """step() then observe() in one native call on every core, without the GIL: returns
        the arrays of observe() (the batch's own, overwritten). Refused games (unchanged) are
        marked in errors() (int8 per game), their reasons in error_messages(); nothing is
        allocated per step (`actions` must be a C-contiguous int64 [N, seats] array)."""
        self._b.step_observe(actions)
        if self._arrays is None:
            self._arrays = self._b.arrays()
        return self._arrays

    def errors(self):
        """int8 [N]: 1 for each game whose last step_observe() was refused (the batch's own array)."""
        return self._b.errors()

    def error_messages(self) -> list[Optional[str]]:
        return self._b.error_messages()

    def reset_done(self, first_seed: int) -> int:
        """Restart every finished game with seeds first_seed, first_seed + 1, … in game order,
        and write their new rows of observe()'s arrays; returns how many were restarted."""
        return self._b.reset_done(int(first_seed))

    def reset(self, i: int, seed: int) -> None:
        self._b.reset(i, seed)

    def game(self, i: int) -> Game:
        return Game(self._b.game(i))

    def play_random(self, seed: int = 0, cap: int = 100_000) -> int:
        return self._b.play_random(seed, cap)
