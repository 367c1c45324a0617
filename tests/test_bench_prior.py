"""bench.prior fits the move prior to a teacher's picks: what the teacher prefers weighs more."""

from bench.prior import fit, log_loss


def test_the_fitted_prior_prefers_the_teachers_pick_and_predicts_it_better_than_chance() -> None:
    # the teacher plays "a" three times in four and "b" otherwise, never "c"
    records = [(["a", "b", "c"], 0)] * 300 + [(["c", "b", "a"], 1)] * 100
    weights = fit(records, epochs=4, rate=0.2, l2=1e-4, seed=1)
    assert weights["a"] > weights["b"] > weights["c"]
    prior, uniform, hits = log_loss(weights, records)
    assert prior < uniform
    assert hits == 0.75  # the favourite, "a", is the pick in three records of four
