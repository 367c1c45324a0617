"""Watergate's card texts as a rules version words them, for the pages that list the cards
(`/rules`). A later data edition rewords a few cards and momentum spaces (the locale's
"editions", keyed like the engine's data editions); a version reads every edition up to its own,
the latest wording winning — as the engine reads its data and as the table's script does — so a
page can never word a card otherwise than the matches of that version play it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.watergate.versions import RULES_VERSION, VERSIONS


@dataclass(frozen=True)
class Worded:
    version: str  # the rules version shown
    cards: dict[str, str]  # card id -> its text
    momentum: dict[str, str]  # the Editor's momentum space ("1" …) -> its instruction


def shown_version(asked: str | None) -> str:
    """The version a page shows: the one asked for when it exists, else today's."""
    return asked if asked is not None and asked in VERSIONS else RULES_VERSION


def worded(strings: dict[str, Any], version: str) -> Worded:
    """Every card's text and momentum space's instruction in `strings` (one locale) as rules
    version `version` words them."""
    data = VERSIONS[version].data
    cards = {cid: str(card["text"]) for cid, card in strings["cards"].items()}
    momentum = {space: str(text) for space, text in strings["momentum_spaces"].items()}
    editions = strings.get("editions", {})
    for key in sorted((k for k in editions if data and int(k) <= int(data)), key=int):
        for cid, card in editions[key].get("cards", {}).items():
            cards[cid] = str(card["text"])
        momentum.update({s: str(t) for s, t in editions[key].get("momentum_spaces", {}).items()})
    return Worded(version, cards, momentum)
