"""Account credentials: what a username and a password may be (stable 422 codes), and argon2id
hashing with pwdlib. A sign-in verifies exactly once whether or not the username exists (against
a dummy hash when it does not), so its timing does not tell which usernames are taken."""

from __future__ import annotations

import re
from functools import cache
from typing import Final

from pwdlib import PasswordHash

from .errors import ApiError

USERNAME: Final = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{2,19}$")  # 3-20, ASCII: no look-alikes
PASSWORD_MIN: Final = 10
PASSWORD_MAX: Final = 256  # argon2 takes any length; a megabyte one would only cost us CPU
HASHER: Final = PasswordHash.recommended()  # argon2id with argon2-cffi's RFC 9106 defaults


def invalid_username() -> ApiError:
    return ApiError(
        422,
        "invalid_username",
        "A username is 3-20 letters, digits, '_' or '-' (starting with a letter or digit).",
    )


def checked_username(raw: str) -> tuple[str, str]:
    """(the username as typed, its key: lower case, unique among accounts), or 422."""
    name = raw.strip()
    if not USERNAME.match(name):
        raise invalid_username()
    return name, name.lower()


def checked_password(raw: str) -> str:
    if len(raw) < PASSWORD_MIN:
        raise ApiError(
            422, "password_too_short", f"A password has at least {PASSWORD_MIN} characters."
        )
    if len(raw) > PASSWORD_MAX:
        raise ApiError(
            422, "password_too_long", f"A password has at most {PASSWORD_MAX} characters."
        )
    return raw


def bad_credentials() -> ApiError:
    return ApiError(401, "bad_credentials", "Wrong username or password.")


def hashed(password: str) -> str:
    """The argon2id hash to keep (salted; about 50 ms of one core: call it off the event loop)."""
    return HASHER.hash(password)


@cache
def _dummy() -> str:
    """A hash of nothing anyone knows, with the same parameters as real ones."""
    return HASHER.hash("no account has this password: it only costs the same time")


def verified(password: str, stored: str | None) -> bool:
    """Whether the password matches the stored hash; with none (no such account) the same work
    is done against the dummy hash and the answer is no."""
    if len(password) > PASSWORD_MAX:  # no password is this long: same work, and no
        password, stored = password[:PASSWORD_MAX], None
    ok = HASHER.verify(password, stored if stored is not None else _dummy())
    return ok and stored is not None
