"""Counts in words: "1 mistake", "3 mistakes", for every message the app writes."""

from __future__ import annotations


def plural(count: int, noun: str, many: str | None = None) -> str:
    """The count and the noun in the number the count asks for.

    Parameters
    ----------
    count : int
        How many; written with thousands separators.
    noun : str
        The singular: "mistake".
    many : str, optional
        The plural when it is not ``noun + "s"``: "examples are" for "example is".

    Returns
    -------
    str

    Examples
    --------
    >>> plural(1, "mistake"), plural(0, "mistake"), plural(1234, "epoch")
    ('1 mistake', '0 mistakes', '1,234 epochs')
    >>> plural(1, "example is", "examples are")
    '1 example is'
    """
    count = int(count)
    return f"{count:,} {noun if count == 1 else (many or noun + 's')}"
