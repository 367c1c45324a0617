"""Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013): one rating period's update
of a player's rating, deviation and volatility from the games of that period. Pure arithmetic."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

SCALE: Final = 173.7178  # the paper's factor between the Glicko and the Glicko-2 scale
BASE: Final = 1500.0
START_RD: Final = 350.0
START_VOLATILITY: Final = 0.06
# The system constant: how fast volatility may move. The paper suggests 0.3-1.2; 0.5 is its own
# example's value and lichess's, a middle that keeps one upset from swinging a rating far.
TAU: Final = 0.5
EPSILON: Final = 0.000001  # the paper's convergence tolerance for the volatility iteration
MAX_RD: Final = START_RD  # a deviation never grows past a newcomer's


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating on the Glicko scale (the one shown: 1500 is a newcomer)."""

    rating: float = BASE
    rd: float = START_RD
    volatility: float = START_VOLATILITY


@dataclass(frozen=True, slots=True)
class Game:
    """One game of the period, against an opponent as rated before the period: score 1 a win,
    0 a loss, 0.5 a draw."""

    opponent: Rating
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm as the paper gives it."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def updated(player: Rating, games: Sequence[Game], tau: float = TAU) -> Rating:
    """The player's rating after a period with these games (none: only the deviation grows)."""
    mu, phi = (player.rating - BASE) / SCALE, player.rd / SCALE
    if not games:
        grown = math.sqrt(phi * phi + player.volatility**2) * SCALE
        return Rating(player.rating, min(grown, MAX_RD), player.volatility)
    impact = 0.0  # sum of g(phi_j)^2 E (1 - E)
    gains = 0.0  # sum of g(phi_j) (s_j - E)
    for game in games:
        mu_j, phi_j = (game.opponent.rating - BASE) / SCALE, game.opponent.rd / SCALE
        g, e = _g(phi_j), _expected(mu, mu_j, phi_j)
        impact += g * g * e * (1.0 - e)
        gains += g * (game.score - e)
    v = 1.0 / impact
    sigma = _volatility(phi, player.volatility, v, v * gains, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * gains
    return Rating(BASE + SCALE * new_mu, min(SCALE * new_phi, MAX_RD), sigma)
