"""OpenSpiel: every game registered with pyspiel passes its random simulation test."""
import pytest

pyspiel = pytest.importorskip("pyspiel")

from robodrome import openspiel  # noqa: E402


# OpenSpiel's test costs time quadratic in a game's length: Bumping Bots races one lap.
SHORT = {"bumping-bots": '{"laps": 1}', "bumping-bots-championship": '{"races": 2, "laps": 1}'}


@pytest.mark.parametrize("name", ["autoscooter", "bumping-bots", "bumping-bots-championship", "rps"])
def test_random_sim_test(name):
    game = pyspiel.load_game(openspiel.GAMES[name], {"options": SHORT.get(name, "")})
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_roborally_loads_and_starts_with_chance_then_a_simultaneous_node():
    game = pyspiel.load_game(openspiel.GAMES["roborally"])
    s = game.new_initial_state()
    assert s.is_chance_node() and len(s.chance_outcomes()) == 16
    s.apply_action(3)
    assert s.is_simultaneous_node()
    assert len(s.legal_actions(0)) > 1000  # every program of nine cards (RR-4.2)


def test_rps_nodes_are_simultaneous_and_play_through_openspiel():
    game = pyspiel.load_game(openspiel.GAMES["rps"])
    s = game.new_initial_state()
    s.apply_action(0)
    assert s.is_simultaneous_node() and s.legal_actions(0) == [0, 1, 2]
    while not s.is_terminal():
        s.apply_actions([0, 1])  # the first listed throw against the second, every time
    assert sorted(s.returns()) == [-1.0, 1.0]


def test_openspiel_algorithm_runs_on_it():
    from open_spiel.python.algorithms import evaluate_bots  # noqa: F401
    game = pyspiel.load_game(openspiel.GAMES["rps"])
    bots = [pyspiel.make_uniform_random_bot(i, 7 + i) for i in range(2)]
    import numpy as np
    ret = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(1))
    assert sorted(ret) in ([-1.0, 1.0],)
