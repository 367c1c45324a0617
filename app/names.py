"""Players' names: what a name may be (1–24 visible characters, no markup, not a name the table
itself shows such as "Computer" or "Guest" in any of its languages, nor a word the chat's word lists
mark: `422 invalid_name` with `"reason": "offensive"`), checked and normalised once."""

from __future__ import annotations

import json
import unicodedata
from functools import cache
from pathlib import Path
from typing import Final

from .errors import ApiError
from .services.chat_safety import marked

MAX_CHARS: Final = 24
LOCALES_DIR: Final = Path(__file__).resolve().parent / "locales"
# the words the table uses for seats that are no player: taken from every locale file, so a new
# language reserves its own words without a change here
RESERVED_KEYS: Final = ("computer", "guest", "deleted_player")
# control, format (zero-width joiners, direction overrides, soft hyphen), line and paragraph
# separators, surrogates, private use and unassigned code points: invisible or unpredictable
REFUSED_CATEGORIES: Final = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"})
# letters and symbols that render as blank space although their category says otherwise
BLANKS: Final = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5")
MAX_MARKS_IN_A_ROW: Final = 3  # enough for any script's accents; stacks beyond overflow the table
MARKUP: Final = frozenset("<>")


class InvalidName(ApiError):
    """422 invalid_name, with which rule the name broke (`reason`) for the client to explain."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(422, "invalid_name", message)
        self.reason = reason

    def body(self) -> dict[str, str]:
        return {**super().body(), "reason": self.reason}


def folded(text: str) -> str:
    """A name's form for comparing: compatibility-normalised, case-folded, spaces collapsed."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


@cache
def _look_alikes() -> dict[str, str]:
    """Every character Unicode's confusables list (UTS 39, through confusable_homoglyphs' copy)
    pairs with another, to one representative of all the characters it can be taken for
    (union-find over the pairs): "о" (Cyrillic), "ο" (Greek) and "o" have one. Read once, on
    the first name checked (~0.2 s)."""
    from confusable_homoglyphs.utils import load  # its module would load the file a second time

    parent: dict[str, str] = {}

    def root(char: str) -> str:
        while parent.get(char, char) != char:
            char = parent[char] = parent.get(parent[char], parent[char])
        return char

    for char, others in load("confusables.json").items():
        for other in others:
            a, b = root(char), root(other["c"])
            if a != b:
                parent[max(a, b)] = min(a, b)
    return {char: root(char) for char in parent}


def skeleton(text: str) -> str:
    """The name as it looks (after UTS 39's skeleton): decomposed, every character replaced by
    the representative of the characters it can be mistaken for, then folded and replaced again
    (case-blind: the list pairs "O" with "0" but not "o"). Two names with one skeleton are hard
    to tell apart on screen."""
    same = _look_alikes()

    def looks(part: str) -> str:
        return "".join(same.get(c, c) for c in unicodedata.normalize("NFD", part))

    return unicodedata.normalize("NFD", looks(folded(looks(" ".join(text.split())))))


@cache
def reserved() -> frozenset[str]:
    """The skeletons of the words no player may take: what the table calls the computer, a guest
    and a deleted player, in every language it speaks (and anything that looks like them)."""
    words: set[str] = set()
    for path in sorted(LOCALES_DIR.glob("*.json")):
        names = json.loads(path.read_text(encoding="utf-8")).get("names", {})
        for word in (names[key] for key in RESERVED_KEYS if key in names):
            words.update((skeleton(word), skeleton(word.upper())))  # "C0MPUTER" looks it too
    return frozenset(words)


def _visible(char: str) -> bool:
    """A character that draws something: not a space, a combining mark or a blank."""
    category = unicodedata.category(char)
    return not (char.isspace() or category[0] == "M" or char in BLANKS)


def checked_name(raw: str) -> str:
    """The name as it is kept (NFC, trimmed, inner runs of spaces made one), or InvalidName."""
    name = unicodedata.normalize("NFC", raw).strip()
    refused = [c for c in name if unicodedata.category(c) in REFUSED_CATEGORIES]
    if refused:
        raise InvalidName("control", "A name cannot hold control or invisible characters.")
    name = " ".join(name.split())  # tabs and newlines are refused above; other spaces become one
    if not name or not any(_visible(c) for c in name):
        raise InvalidName("empty", "A name needs at least one visible character.")
    if len(name) > MAX_CHARS:
        raise InvalidName("too_long", f"A name has at most {MAX_CHARS} characters.")
    marks = 0
    for char in name:
        marks = marks + 1 if unicodedata.category(char)[0] == "M" else 0
        if marks > MAX_MARKS_IN_A_ROW:
            raise InvalidName("control", "A name cannot stack so many accents on one letter.")
    if MARKUP & set(name):
        raise InvalidName("markup", "A name cannot contain < or >.")
    if skeleton(name) in reserved():
        raise InvalidName("reserved", "That name is reserved; please choose another.")
    if marked(name):  # the chat's word lists (issue 43)
        raise InvalidName("offensive", "That name is not allowed here; please choose another.")
    return name
