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


def listed(items) -> str:
    """Items in a sentence: "a", "a and b", "a, b and c".

    Examples
    --------
    >>> listed(["0"]), listed(["0", "1"]), listed(["0", "1", "3"])
    ('0', '0 and 1', '0, 1 and 3')
    """
    items = list(items)
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


# A run that cannot be exact carries this mark wherever its numbers appear, with one of the
# reasons below (the lessons' pages, the stepper's header).
FLOATS = "≈ floats"
FLOAT_DATA = ("These numbers are not short decimals, so the run is in floating point: its "
              "numbers are rounded, and a y·a within rounding of 0 counts as a tie (a mistake).")
FLOAT_DESCENT = ("The descent's step η₀/√t is irrational whenever t is not a perfect square "
                 "(at most steps: √1, √4, √9, … are whole), so it runs in floating point: its "
                 "numbers are rounded.")
FLOAT_RBF = ("The RBF kernel exp(−‖x − x′‖²/(2σ²)) is irrational wherever x ≠ x′ (e to a "
             "rational power other than 0 is), so the run is in floating point: its numbers "
             "are rounded, and an s within rounding of 0 counts as a tie.")
