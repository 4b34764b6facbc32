"""Autoscooter's factored plot (docs/python.md "Encodings", autoscooter::encoding): car × sheet
row × letter with a mask per head. Every choice the masks allow is a legal plot of the engine
(AS-4.1, AS-7.1), together exactly the engine's listed plots, each once; a car or row the masks
exclude is refused by the rules with nothing changed."""
import numpy as np
import pytest

import robodrome
from robodrome import FACTORED_HEADS, NO_LETTER, WILD_CAR


def _heads_of(action):
    """The car and letter heads of a listed plot (its row: see _check)."""
    if action["type"] == "plot_wild":
        return WILD_CAR, 0, ord(action["letter"]) - ord("A")
    return action["car"], None, NO_LETTER if action.get("letter") is None else ord(action["letter"]) - ord("A")


def _check(g, seat, rng):
    car, rows, letters = g.factored_masks(seat)
    assert car.shape == (9,) and rows.shape == (9, 11) and letters.shape == (9, 17)
    listed = [a for a in g.legal_actions(seat) if a["type"] in ("plot", "plot_wild")]
    numbers = {}
    for a in listed:
        if a["type"] == "plot":
            numbers.setdefault(a["car"], set()).add(a["number"])
    heads = []
    for a in listed:
        c, r, l = _heads_of(a)
        if r is None:  # the k-th unused number is in the k-th unused row (both ascending)
            k = sorted(numbers[c]).index(a["number"])
            r = int(np.flatnonzero(rows[c])[k])
        heads.append((c, r, l))
        assert car[c] and rows[c, r] and letters[c, l], a
    assert len(set(heads)) == len(heads), "each listed plot has its own choices"
    allowed = int(sum(car[c] * rows[c].sum() * letters[c].sum() for c in range(8)))
    allowed += int(car[WILD_CAR] * letters[WILD_CAR].sum())
    assert allowed == len(listed), "the masks allow exactly the listed plots"
    # the engine plays a factored choice as the listed action it stands for
    for i in rng.choice(len(listed), size=min(6, len(listed)), replace=False):
        h, want = g.clone(), g.clone()
        h.apply_factored(seat, *heads[i])
        want.apply(seat, listed[i])
        assert h.same_state(want)
    # a masked-out car or row: refused by the rules, nothing changed; a masked-out letter of an
    # allowed car and row is a plot the rules accept but do not list (AS-4.2: a letter illegal
    # for the speed is played straight ahead; a stationary car's letter is ignored)
    off = [(c, r, l) for c in range(9) for r in range(11) for l in range(17)
           if not (car[c] and rows[c, r] and letters[c, l]) and not (c == WILD_CAR and car[c])]
    for c, r, l in [off[i] for i in rng.choice(len(off), size=min(8, len(off)), replace=False)]:
        h = g.clone()
        if car[c] and rows[c, r]:
            h.apply_factored(seat, c, r, l)  # accepted, and not listed: not among `heads`
            assert (c, r, l) not in heads
            continue
        with pytest.raises(robodrome.IllegalAction):
            h.apply_factored(seat, c, r, l)
        assert h.same_state(g)
    return len(listed), sum(a["type"] == "plot_wild" for a in listed)


@pytest.mark.parametrize("players,variants", [(2, None), (3, {"wild_car": True})])
def test_every_factored_plot_is_a_listed_plot_and_back(players, variants):
    setup = robodrome.make_setup("autoscooter", players, variants=variants)
    rng = np.random.default_rng(players)
    seen = wild = 0
    for seed in range(3):
        g = robodrome.new_game("autoscooter", setup, seed)
        for _ in range(40):
            if g.decision() is None:
                break
            for s in g.owing():
                n, w = _check(g, s, rng)
                seen, wild = seen + n, wild + w
            s = g.owing()[0]
            g.apply_index(s, int(rng.integers(g.legal_count(s))))
    assert seen > 0 and (wild > 0) == (variants is not None)


def test_factored_choices_out_of_range_or_of_another_game_are_bad_input():
    g = robodrome.new_game("autoscooter", seed=1)
    for bad in [(FACTORED_HEADS[0], 0, 0), (0, FACTORED_HEADS[1], 0), (0, 0, -1)]:
        with pytest.raises(robodrome.BadInput):
            g.apply_factored(0, *bad)
    with pytest.raises(robodrome.BadInput):
        robodrome.new_game("bumping-bots", seed=1).factored_masks(0)
