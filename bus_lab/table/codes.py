"""Join codes and secrets of the class table.

A join code is what a student types to find a table (``"K7QPM"``): short, upper case, and made
of letters and digits that cannot be mistaken for one another (no ``0``/``O``, no ``1``/``I``/``L``).
A secret (a seat's token, the host key) is long and random; secrets are compared in constant time.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Container

__all__ = ["ALPHABET", "CODE_LENGTH", "new_code", "new_secret", "normalize_code", "same_secret"]

#: The characters of a join code: upper-case letters and digits without look-alikes.
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
#: The usual length of a join code, in characters.
CODE_LENGTH = 5
#: The longest text :func:`normalize_code` reads, in characters (longer text is not a code).
MAX_CODE_TEXT = 40


def new_code(taken: Container[str], length: int = CODE_LENGTH) -> str:
    """A fresh random join code that is not in ``taken``.

    Args:
        taken (Container[str]): codes already in use (e.g. the hub's tables).
        length (int): characters in the code (at least 4).

    Returns:
        str: ``length`` characters of :data:`ALPHABET`, drawn with :mod:`secrets`.

    Raises:
        ValueError: ``length`` below 4, or no free code found after many tries.
    """
    if length < 4:
        raise ValueError(f"a join code has at least 4 characters, not {length}")
    for _ in range(1000):
        code = "".join(secrets.choice(ALPHABET) for _ in range(length))
        if code not in taken:
            return code
    raise ValueError("no free join code was found: too many tables")


def normalize_code(text: str) -> str | None:
    """The join code a person typed, in its canonical form, or ``None`` if it is not one.

    Surrounding and inner spaces and dashes are dropped and letters are upper-cased; every
    character left must be one of :data:`ALPHABET` (a typed ``O`` or ``1`` is not guessed at).

    Args:
        text (str): what was typed (any value: a non-string gives ``None``).

    Returns:
        str | None: the code (4 to 8 characters), or ``None`` when malformed.
    """
    if not isinstance(text, str) or len(text) > MAX_CODE_TEXT:
        return None
    code = "".join(ch for ch in text if ch not in " -\t").upper()
    if not 4 <= len(code) <= 8 or any(ch not in ALPHABET for ch in code):
        return None
    return code


def new_secret() -> str:
    """A new secret (a seat's token or the host key): 24 random bytes, URL-safe text (32 chars)."""
    return secrets.token_urlsafe(24)


def same_secret(a: str, b: str) -> bool:
    """Whether two secrets are equal, compared in constant time (:func:`hmac.compare_digest`).

    Args:
        a (str): one secret. b (str): the other. A non-string or non-ASCII value is never equal.

    Returns:
        bool: True only for two equal ASCII strings.
    """
    if not isinstance(a, str) or not isinstance(b, str):
        return False
    try:
        return hmac.compare_digest(a.encode("ascii"), b.encode("ascii"))
    except UnicodeEncodeError:
        return False
