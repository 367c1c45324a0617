"""Every play of one card that the rules may offer on a turn, built once per card and shared: the
commonest legal list of a match (plays.play_choices) is put together from these records. Kept apart
from the action records so that the compiled copy (`make mypyc`) compiles it: its fields are then
read natively in that hot loop."""

from __future__ import annotations

from typing import Final

from .actions import EvidenceMoves, PlayAction, PlayValue, offer
from .catalog import COLORS


class CardOffers:
    """Every play of one card the rules may offer on a turn, built once (see `actions.offer`)."""

    def __init__(self, card: str) -> None:
        self.initiative: Final = offer(PlayValue, card, "initiative", None, None)
        self.momentum: Final = offer(PlayValue, card, "momentum", None, None)
        self.none: Final = offer(PlayValue, card, "none", None, None)
        self.play_action: Final = offer(PlayAction, card)
        ask = {c: offer(PlayValue, card, "ask", None, c) for c in COLORS}
        # R11: the questions a card of each colour may ask (a joker names any colour)
        asks: dict[str, tuple[PlayValue, ...]] = {c: (ask[c],) for c in COLORS}
        asks["joker"] = tuple(ask[c] for c in COLORS)
        self.asks: Final = asks
        self.evidence: Final = EvidenceMoves(card)


_CARD_OFFERS: Final[dict[str, CardOffers]] = {}


def card_offers(card: str) -> CardOffers:
    """The shared plays of `card` (a card id of any ruleset)."""
    found = _CARD_OFFERS.get(card)
    if found is None:
        found = _CARD_OFFERS[card] = CardOffers(card)
    return found


# `CARD_OFFERS_GET(card)`: the card's offers if built, else None (`card_offers` builds them); the
# bound method, as `actions.offer` is, for the hottest loop of the rules (plays.play_choices)
CARD_OFFERS_GET: Final = _CARD_OFFERS.get
