"""Chat safety (issue 43): the word lists that mark a chat line or refuse a name, and the flood
and repeat-text checks beside the chat's rate limit. The lists are data
(`app/data/wordlists/*.txt`, their source in the README there); matching reads whole words of a
normalised text, so case, accents, repeated letters, look-alike letters, l33t and spaced-out
letters do not hide a word, and a word inside another ("Scunthorpe") is never marked."""

from __future__ import annotations

import re
import threading
import unicodedata
from collections import deque
from functools import cache
from pathlib import Path
from typing import Final

from ..bounded import BoundedCache, Caches
from ..errors import ApiError

WORDLISTS: Final = Path(__file__).resolve().parent.parent / "data" / "wordlists"
LANGUAGES: Final = ("en", "pt-BR", "de")
# look-alike letters of other scripts read as the Latin ones
LOOK_ALIKES: Final = str.maketrans(
    {
        **dict(zip("аеорсухіјкмтвнѕԁ", "aeopcyxijkmtbhsd", strict=True)),  # Cyrillic
        **dict(zip("αεοριτυκνχ", "aeopitukvx", strict=True)),  # Greek
    }
)
# digits and signs used as letters; "1", "!" and "|" stand for "i" or "l", or are just
# punctuation ("Hure!", "puta!!"): all three readings are tried
LEET: Final = {"0": "o", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "@": "a", "$": "s"}
AMBIGUOUS: Final = "1!|"
READINGS: Final = ("i", "l", " ")
# letters spaced or dotted out one by one ("f u c k", "f.u.c.k"), read as one word
SPACED: Final = re.compile(r"(?<![a-z])[a-z](?:[ ._*\-]+[a-z](?![a-z])){2,}")
SEPARATORS: Final = re.compile(r"[ ._*\-]+")

# the flood and repeat checks (per player or guest seat, counted by this process)
FLOOD_LINES: Final = 40  # lines one writer may say at all their tables together ...
FLOOD_CHARS: Final = 4000  # ... or characters ...
FLOOD_WINDOW_S: Final = 60.0  # ... within this many seconds (a seat alone may say 30 lines)
REPEATS: Final = 2  # the same text said this many times already ...
REPEAT_WINDOW_S: Final = 120.0  # ... within this many seconds: a third is refused
WRITERS_TRACKED: Final = 10_000


def _entries(language: str) -> list[str]:
    lines = (WORDLISTS / f"{language}.txt").read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def _pattern(entry: str) -> str:
    """An entry as a regular expression over normalised text: each letter one or more times,
    a space any gap between words, `*` the rest of the word."""
    prefix = entry.endswith("*")
    words = re.findall("[a-z]+", normalised(entry.rstrip("*"), leet=False))
    body = r"[^a-z]+".join("".join(f"{re.escape(c)}+" for c in word) for word in words)
    return body + ("[a-z]*" if prefix else "")


@cache
def _matcher() -> re.Pattern[str]:
    entries = {entry for language in LANGUAGES for entry in _entries(language)}
    alternatives = "|".join(sorted((_pattern(e) for e in entries), key=len, reverse=True))
    return re.compile(rf"(?<![a-z])(?:{alternatives})(?![a-z])")


def normalised(text: str, *, leet: bool = True, one: str = "i") -> str:
    """The text as matching reads it: lower-case ASCII letters, everything else a space."""
    text = unicodedata.normalize("NFKD", text.casefold())
    text = "".join(c for c in text if not unicodedata.combining(c)).translate(LOOK_ALIKES)
    if leet:
        text = "".join(LEET.get(c, one if c in AMBIGUOUS else c) for c in text)
    text = "".join(c if "a" <= c <= "z" or c in " ._*-" else " " for c in text)
    return SPACED.sub(lambda m: SEPARATORS.sub("", m.group(0)), text)


def marked(text: str) -> bool:
    """Whether a word list marks the text (a chat line or a name)."""
    matcher = _matcher()
    return any(matcher.search(normalised(text, one=one)) for one in READINGS)


def _squeezed(text: str) -> str:
    """A line's form for the repeat check: its letters and digits, folded."""
    return "".join(c for c in unicodedata.normalize("NFKC", text).casefold() if c.isalnum())


def guest_match(writer: str) -> str | None:
    """The match of a guest's seat writing ("<match id>/<seat>"); a player (a hex id) writes
    at all their tables, so its count is about no one match."""
    match_id, slash, _ = writer.partition("/")
    return match_id if slash else None


class FloodGuard:
    """The flood and repeat-text checks: per writer (a player, or a guest's seat), across their
    tables, in this process's memory (bounded, least recently heard dropped first)."""

    def __init__(self, caches: Caches | None = None) -> None:
        self._said: BoundedCache[str, deque[tuple[float, str, int]]] = BoundedCache(
            "chat_writers", WRITERS_TRACKED, match_of=guest_match, caches=caches
        )
        self._lock = threading.Lock()

    def check(self, writer: str, text: str, now: float) -> None:
        """Refuse a line over the flood limit (`429 chat_flood`) or a text said too often lately
        (`429 chat_repeated`); else count it."""
        squeezed = _squeezed(text)
        with self._lock:
            said = self._said.peek(writer) or deque(maxlen=FLOOD_LINES)
            self._said.put(writer, said)  # the most recently heard now
            recent = [(at, n) for at, _, n in said if now - at < FLOOD_WINDOW_S]
            if len(recent) >= FLOOD_LINES or sum(n for _, n in recent) + len(text) > FLOOD_CHARS:
                wait = max(1, int(FLOOD_WINDOW_S - (now - recent[0][0]) + 0.999))
                raise ApiError(429, "chat_flood", f"Too much at once; wait {wait} seconds.")
            same = sum(1 for at, s, _ in said if s == squeezed and now - at < REPEAT_WINDOW_S)
            if squeezed and same >= REPEATS:
                raise ApiError(429, "chat_repeated", "That was said already; say something new.")
            said.append((now, squeezed, len(text)))
