"""Swiss standings (app/tournaments/swiss_standings.py) on small tournaments whose tie-breaks
are worked out by hand in the comments, not by the code under test."""

from __future__ import annotations

import pytest

from app.tournaments.swiss_standings import Played, Result, scores, standings

RATINGS = {"A": 1600.0, "B": 1500.0, "C": 1400.0, "D": 1300.0, "E": 1200.0}
# Round 1: A beat B, C drew D, E had the bye. Round 2: A drew E, B beat C, D had the bye.
FIVE = [
    Played((Result("A", "B", 1.0), Result("C", "D", 0.5)), bye="E"),
    Played((Result("A", "E", 0.5), Result("B", "C", 1.0)), bye="D"),
]


def test_points_count_a_bye_as_a_win():
    # A 1+0.5, B 0+1, C 0.5+0, D 0.5+1 (bye), E 1 (bye)+0.5
    assert scores(FIVE) == {"A": 1.5, "B": 1.0, "C": 0.5, "D": 1.5, "E": 1.5}


def test_buchholz_and_sonneborn_berger_by_hand():
    table = {s.id: s for s in standings(RATINGS, FIVE)}
    # Buchholz, the opponents' points (a bye adds nothing):
    #   A: B 1 + E 1.5 = 2.5   B: A 1.5 + C 0.5 = 2   C: D 1.5 + B 1 = 2.5
    #   D: C 0.5 = 0.5         E: A 1.5 = 1.5
    assert {p: s.buchholz for p, s in table.items()} == {
        "A": 2.5,
        "B": 2.0,
        "C": 2.5,
        "D": 0.5,
        "E": 1.5,
    }
    # Sonneborn-Berger, beaten opponents' points in full, drawn ones' halved:
    #   A: beat B 1 + drew E 1.5/2 = 1.75   B: beat C 0.5 = 0.5   C: drew D 1.5/2 = 0.75
    #   D: drew C 0.5/2 = 0.25              E: drew A 1.5/2 = 0.75
    assert {p: s.sonneborn_berger for p, s in table.items()} == {
        "A": 1.75,
        "B": 0.5,
        "C": 0.75,
        "D": 0.25,
        "E": 0.75,
    }
    # 1.5 points: A (Buchholz 2.5), E (1.5), D (0.5); then B 1, C 0.5
    assert [s.id for s in standings(RATINGS, FIVE)] == ["A", "E", "D", "B", "C"]
    assert [s.rank for s in standings(RATINGS, FIVE)] == [1, 2, 3, 4, 5]


def test_sonneborn_berger_then_rating_then_id_break_ties():
    # P beat Q, R drew S; then P drew R, Q beat S. Points P 1.5, Q 1, R 1, S 0.5.
    # Buchholz: Q = P 1.5 + S 0.5 = 2, R = S 0.5 + P 1.5 = 2: tied.
    # Sonneborn-Berger: Q beat S 0.5 = 0.5; R drew S 0.5/2 + drew P 1.5/2 = 1. R first.
    played = [
        Played((Result("P", "Q", 1.0), Result("R", "S", 0.5))),
        Played((Result("P", "R", 0.5), Result("Q", "S", 1.0))),
    ]
    ratings = {"P": 1500.0, "Q": 1900.0, "R": 1400.0, "S": 1500.0}
    assert [s.id for s in standings(ratings, played)] == ["P", "R", "Q", "S"]
    # nothing played: rating, then id
    assert [s.id for s in standings({"y": 1500.0, "x": 1500.0, "z": 1600.0}, [])] == ["z", "x", "y"]


def test_a_withdrawn_opponent_still_counts():
    # D withdrew and is left out of the standings; C's Buchholz still has D's 1.5 points
    ratings = {p: r for p, r in RATINGS.items() if p != "D"}
    table = {s.id: s for s in standings(ratings, FIVE)}
    assert "D" not in table
    assert table["C"].buchholz == 2.5


def test_a_game_scores_one_half_or_nothing():
    with pytest.raises(ValueError):
        scores([Played((Result("A", "B", 0.3),))])
