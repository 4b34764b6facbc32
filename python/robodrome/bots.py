"""Robodrome's own bots as Python callables: ``policy(game, seat) -> action``.

``random()``, ``heuristic()`` and ``search(ms=...)`` / ``search(simulations=...)`` run the Rust
bots of crates/bots (without the GIL); each call takes the next seed of its own counter, so a
bot made with the same seed plays the same game the same way (search by time excepted).
"""

from __future__ import annotations

import itertools
from typing import Any, Callable, Optional

from . import Game

Policy = Callable[[Game, int], Any]


class RobodromeBot:
    def __init__(self, spec: str, seed: int = 0, max_ms: Optional[int] = None):
        self.spec = spec
        self.max_ms = max_ms
        self._seeds = itertools.count(seed * 1_000_003 + 1)

    def __call__(self, game: Game, seat: int) -> Any:
        return game.bot_action(self.spec, seat, next(self._seeds), self.max_ms)

    def __repr__(self) -> str:
        return f"robodrome.bots.{self.spec}"


def random(seed: int = 0) -> RobodromeBot:
    return RobodromeBot("random", seed)


def heuristic(seed: int = 0) -> RobodromeBot:
    return RobodromeBot("heuristic", seed)


def search(ms: Optional[int] = None, simulations: Optional[int] = None, seed: int = 0) -> RobodromeBot:
    """Determinized root search: for `ms` milliseconds, or `simulations` per decision."""
    if (ms is None) == (simulations is None):
        raise ValueError("search: give ms= or simulations=")
    if ms is not None:
        return RobodromeBot(f"search:{int(ms)}ms", seed, max_ms=int(ms) + 50)
    return RobodromeBot(f"search:{int(simulations)}", seed)


def play(game: Game, players: list[Policy], cap: int = 1_000_000) -> Game:
    """Play `game` to its end, seat i played by players[i] (time_up when a player passes None)."""
    n = 0
    while game.decision() is not None and n < cap:
        for seat in game.owing():
            if game.decision() is None or seat not in game.owing():
                continue
            a = players[seat](game, seat)
            if a is None:
                game.time_up()
                break
            game.apply(seat, a)
            n += 1
    return game


def tournament(name: str, players: dict[str, Callable[[], Policy]], games: int = 20,
               seed: int = 0, seats: int = 2, setup: Optional[dict] = None) -> dict:
    """Every pairing of the named players over `games` games each, seats rotated; returns
    {"wins": {name: n}, "games": {name: n}, "pairs": [...]}. A Python policy plays beside the
    Robodrome bots: pass any factory returning policy(game, seat) -> action."""
    from . import new_game
    names = list(players)
    wins = {n: 0.0 for n in names}
    played = {n: 0 for n in names}
    pairs = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            wa = 0.0
            for k in range(games):
                order = [a, b] if k % 2 == 0 else [b, a]
                g = new_game(name, setup, seed + k, players=seats)
                pols = [players[order[s % 2]]() for s in range(g.seats)]
                play(g, pols)
                r = g.rewards()
                # the pair's score: 1 for the better reward, 0.5 for a tie
                ra = max(r[s] for s in range(g.seats) if order[s % 2] == a)
                rb = max(r[s] for s in range(g.seats) if order[s % 2] == b)
                wa += 1.0 if ra > rb else 0.5 if ra == rb else 0.0
            wins[a] += wa
            wins[b] += games - wa
            played[a] += games
            played[b] += games
            pairs.append({"a": a, "b": b, "games": games, "a_score": wa})
    return {"wins": wins, "games": played, "pairs": pairs}
