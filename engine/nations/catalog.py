"""Nations' component records: resources, card types, the operations of the effect vocabulary
(NR19), progress cards, event cards and difficulty levels, as typed frozen records.

The data files are the only source of the components; `ruleset.py` reads them into these records.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

Resource = Literal["gold", "stone", "food", "books"]
RESOURCES: Final[tuple[Resource, ...]] = ("gold", "stone", "food", "books")
Goods = Literal["gold", "stone", "food"]  # what a growth bonus gives and cards consume (NR34)
GOODS: Final[tuple[Goods, ...]] = ("gold", "stone", "food")
Gainable = Literal["gold", "stone", "food", "books", "vp"]
GAINABLE: Final[tuple[Gainable, ...]] = ("gold", "stone", "food", "books", "vp")
CardType = Literal[
    "building", "military", "colony", "war", "battle", "wonder", "advisor", "golden_age"
]
CARD_TYPES: Final[tuple[CardType, ...]] = (
    "building",
    "military",
    "colony",
    "war",
    "battle",
    "wonder",
    "advisor",
    "golden_age",
)
Measure = Literal[
    "strength", "stability", "books", "gold", "food", "stone", "buildings", "colonies", "wonders"
]
MEASURES: Final[tuple[Measure, ...]] = (
    "strength",
    "stability",
    "books",
    "gold",
    "food",
    "stone",
    "buildings",
    "colonies",
    "wonders",
)
ScoreWhat = Literal["colony", "wonder", "building", "military"]
SCORE_WHATS: Final[tuple[ScoreWhat, ...]] = ("colony", "wonder", "building", "military")
Difficulty = Literal["chieftain", "prince", "king", "emperor"]
DIFFICULTIES: Final[tuple[Difficulty, ...]] = ("chieftain", "prince", "king", "emperor")
PopulationCost = Literal["food", "stability"]
POPULATION_COSTS: Final[tuple[PopulationCost, ...]] = ("food", "stability")


# ---- in-force operations: what a card adds while it is on the board (per worker or once) -------


@dataclass(frozen=True, slots=True)
class Produce:
    """Gain `amount` of a resource at every production."""

    resource: Resource
    amount: int


@dataclass(frozen=True, slots=True)
class Consume:
    """Pay `amount` of a good at every production (NR34: only gold, stone, food)."""

    resource: Goods
    amount: int


@dataclass(frozen=True, slots=True)
class Strength:
    amount: int


@dataclass(frozen=True, slots=True)
class Stability:
    amount: int  # may be negative


@dataclass(frozen=True, slots=True)
class Score:
    """VP at the final score."""

    amount: int


@dataclass(frozen=True, slots=True)
class ScorePer:
    """VP at the final score for each card of a kind the nation owns (a wonder's bonus)."""

    what: ScoreWhat
    amount: int


InForce = Produce | Consume | Strength | Stability | Score | ScorePer


# ---- once-only operations: carried out when a card is bought, an event or a war resolves --------


@dataclass(frozen=True, slots=True)
class Gain:
    resource: Gainable
    amount: int


@dataclass(frozen=True, slots=True)
class Lose:
    """Lose up to `amount` (resources never below 0, VP may: NR30)."""

    resource: Gainable
    amount: int


@dataclass(frozen=True, slots=True)
class GainByAttack:
    """A battle: `per` of a resource for each point of attack of the best manned military card."""

    resource: Resource
    per: int


@dataclass(frozen=True, slots=True)
class Pay:
    """Pay exactly `amount` (only inside a `choose` option, offered only when affordable)."""

    resource: Resource
    amount: int


@dataclass(frozen=True, slots=True)
class Choose:
    """The owner picks one option (NR14, NR33); each option is a list of operations."""

    options: tuple[tuple[Gain | Lose | Pay, ...], ...]


Once = Gain | Lose | GainByAttack | Pay | Choose


@dataclass(frozen=True, slots=True)
class Yield:
    """In-force operations added up: what one worker on a card (or the card itself) gives."""

    produce: tuple[int, int, int, int]  # gold, stone, food, books
    consume: tuple[int, int, int, int]
    strength: int
    stability: int
    score: int
    score_per: tuple[ScorePer, ...]


NO_YIELD: Final = Yield((0, 0, 0, 0), (0, 0, 0, 0), 0, 0, 0, ())


@dataclass(frozen=True, slots=True)
class Card:
    """A progress card (or one of side A's printed cards, age 0)."""

    id: str
    age: int
    type: CardType
    min_players: int  # NR38
    deploy: int  # stone per worker (building, military)
    attack: int  # military (NR40)
    min_strength: int  # colony (NR9)
    sections: tuple[int, ...]  # wonder: stone per section, one architect each
    per_worker: Yield  # building, military
    lasting: Yield  # colony, completed wonder, advisor
    on_buy: tuple[Once, ...]  # colony, battle, golden age
    defeat: tuple[Lose, ...]  # war (NR32)
    in_force: tuple[InForce, ...]  # the in-force operations as written (per worker or lasting)
    history: str
    provenance: str

    @property
    def takes_workers(self) -> bool:
        return self.type == "building" or self.type == "military"


@dataclass(frozen=True, slots=True)
class HistoricalEvent:
    """One of an event card's two events: a measure, what a sole leader gains, what the tied
    last lose (NR15, NR35)."""

    measure: Measure
    leader: tuple[Gain | Lose, ...]
    last: tuple[Gain | Lose, ...]


@dataclass(frozen=True, slots=True)
class EventCard:
    id: str
    age: int
    architects: int  # NR5: before the extra players' architects
    famine: int
    events: tuple[HistoricalEvent, ...]
    history: str
    provenance: str


@dataclass(frozen=True, slots=True)
class Level:
    """A difficulty level (NR6): starting goods and the growth bonus of each good."""

    id: Difficulty
    start: tuple[int, int, int]  # gold, stone, food
    bonus: tuple[int, int, int]  # gold, stone, food
    provenance: str
