"""The event records' own declarations: what each says a viewer reads names real, plain fields."""

from __future__ import annotations

from dataclasses import FrozenInstanceError, fields

import pytest

from engine.watergate.events import EVENT_TYPES, CardsDrawn, ReactionPassed, TokenPayload


@pytest.mark.parametrize("record", EVENT_TYPES, ids=lambda cls: cls.__name__)
def test_every_public_field_is_a_plain_field_of_its_record(record: type) -> None:
    types = {f.name: str(f.type) for f in fields(record)}
    assert set(record.public) <= set(types), record.public
    for name in record.public:  # projected as is: never a token payload or a card list
        assert "TokenPayload" not in types[name] and "tuple" not in types[name], name
    hidden_tokens = any("TokenPayload" in t for t in types.values())
    assert hasattr(record, "face_down") == hidden_tokens, "a token-carrying record says who sees"


def test_event_types_are_unique_snake_case_names() -> None:
    names = [cls.type for cls in EVENT_TYPES]
    assert len(set(names)) == len(names) == 39  # only_choice: issue 42
    assert all(name.islower() and " " not in name for name in names)


def test_records_are_frozen_values() -> None:
    drawn = CardsDrawn("editor", 1, ("E01",))
    assert drawn == CardsDrawn("editor", 1, ("E01",))
    assert hash(drawn) == hash(CardsDrawn("editor", 1, ("E01",)))
    with pytest.raises(FrozenInstanceError):
        drawn.count = 2  # type: ignore[misc]
    assert not hasattr(ReactionPassed("nixon"), "__dict__")  # slotted
    assert TokenPayload(1, "t", ("blue",), False, "down")._fields[0] == "handle"
