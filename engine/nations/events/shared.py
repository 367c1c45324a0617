"""What the event records share: the names of their fields and the four resources' amounts."""

from __future__ import annotations

Fields = tuple[str, ...]  # names of a record's fields, in the order the log writes them
Amounts = tuple[int, int, int, int]  # gold, stone, food, books
