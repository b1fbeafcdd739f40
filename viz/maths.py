"""Numbers and vectors written as the pages write them, in their LaTeX and their text."""

from __future__ import annotations

from fractions import Fraction


def num(value: float) -> str:
    """A number as a student would write it: 0.35, not 0.35000000000000003."""
    value = float(value)
    if value == 0:
        return "0"
    text = f"{round(value, 10):.6g}"
    return text.replace("e+0", "e").replace("e-0", "e-")


def labelled(y: float, classes) -> str:
    """A label y with its class's name, where the name says more than y does.

    >>> labelled(-1, ("setosa", "versicolor")), labelled(1, ("-1", "+1")), labelled(-1, ("0", "1"))
    ('-1 (setosa)', '1', '-1 (0)')
    """
    value = num(y)
    name = str(classes[0 if y < 0 else 1])
    return value if name in (value, f"+{value}") else f"{value} ({name})"


def vec(values) -> str:
    """A vector as a LaTeX tuple."""
    return r"\left(" + ",\\ ".join(num(v) for v in values) + r"\right)"


def signed(value: float) -> str:
    """A term with its sign, for sums written out: + 0.2 or - 0.1."""
    return f"- {num(-value)}" if value < 0 else f"+ {num(value)}"


def share(count: int, total: int) -> str:
    """A count out of a total with its percentage, '3 / 60 (5.0 %)'; a dash when total is 0."""
    return f"{count} / {total} ({100 * count / total:.1f} %)" if total else "—"


# "=" or "≈", one rule for every number the pages write (ui/stepper_assets/format.js's isShown
# and eqSign say the same): "=" only where the number written is the value. A Fraction is its
# own value; a float stands for the decimal it prints as (data, an exact run's numbers) when
# ``exact``, and for something it only approximates (a run in floats, a length through a
# square root) when not.


def rounded(value, places: int | None = None) -> str:
    """``num(value)``, first rounded to ``places`` decimal places where a page keeps it short."""
    value = float(value)
    return num(value if places is None else round(value, places))


def is_shown(value, *, exact: bool = True, places: int | None = None) -> bool:
    """Whether the number written, ``rounded(value, places)``, is the value itself.

    >>> is_shown(0.35), is_shown(1 / 3), is_shown(Fraction(1, 3)), is_shown(0.5, exact=False)
    (True, False, False, False)
    >>> is_shown(Fraction(729, 53) / 3), is_shown(Fraction(7, 4)), is_shown(float("inf"))
    (False, True, False)
    >>> is_shown(0.12345, places=4), is_shown(0.1235, places=4)
    (False, True)
    """
    if isinstance(value, Fraction):
        return exact and Fraction(rounded(value, places)) == value
    value = float(value)
    if not exact or value != value or value in (float("inf"), float("-inf")):
        return False
    return float(rounded(value, places)) == value


def eq_sign(values, *, exact: bool = True, latex: bool = False,
            places: int | None = None) -> str:
    r""""=" when every value is written as it is (``is_shown``), else "≈" (``\approx`` in LaTeX).

    >>> eq_sign(0.5), eq_sign([0.5, 1 / 3]), eq_sign(2 ** 0.5, latex=True) == r"\approx"
    ('=', '≈', True)
    """
    many = values if isinstance(values, (list, tuple)) or getattr(values, "ndim", 0) else [values]
    if all(is_shown(v, exact=exact, places=places) for v in many):
        return "="
    return r"\approx" if latex else "≈"


def equals(value, *, exact: bool = True, latex: bool = False, places: int | None = None) -> str:
    """The sign and the number: "= 0.5", "≈ 0.353553".

    >>> equals(0.5), equals(0.125 ** 0.5, exact=False), equals(Fraction(243, 53))
    ('= 0.5', '≈ 0.353553', '≈ 4.58491')
    >>> equals(729 / 53, places=2)
    '≈ 13.75'
    """
    sign = eq_sign(value, exact=exact, latex=latex, places=places)
    return f"{sign} {rounded(value, places)}"


def _flat(values) -> list:
    """The numbers of values (a number, a vector, or a list of them), one list."""
    if isinstance(values, (list, tuple)) or getattr(values, "ndim", 0):
        return [v for item in values for v in _flat(item)]
    return [values]


def chain_signs(given=(), computed=(), result=(), *, exact: bool = True, latex: bool = False,
                places: int | None = None) -> tuple[str, str]:
    r"""The two signs of a line of maths written with its numbers, "formula = substitution =
    result": the first "=" only where every number substituted is written as it is
    (``is_shown``), so that the substitution is the formula's value; the second only where the
    result is written as it is too, so that the arithmetic on the numbers written is the result
    written. ``given``: the data's and the settings' numbers (they stand for the decimals they
    print as); ``computed``: the run's own, of its exactness ``exact``, written to ``places``
    where a page keeps them short, as ``result`` is. (format.js's chainSigns says the same.)

    >>> chain_signs([0.5, 1], [0.25], 0.75), chain_signs([1 / 3, 1], [0.5], 0.5)
    (('=', '='), ('≈', '≈'))
    >>> chain_signs([0.5], [0.123456789], 1.0), chain_signs([2], [], 2 ** 0.5, latex=True)
    (('≈', '≈'), ('=', '\\approx'))
    >>> chain_signs([1], [0.5], 0.5, exact=False)
    ('≈', '≈')
    """
    approx = r"\approx" if latex else "≈"
    first = all(is_shown(v) for v in _flat(given)) and all(
        is_shown(v, exact=exact, places=places) for v in _flat(computed))
    second = first and all(is_shown(v, exact=exact, places=places) for v in _flat(result))
    return ("=" if first else approx), ("=" if second else approx)


def written(value, *, exact: bool = True, places: int | None = None) -> str:
    """A number where no sign precedes it (a metric, a table): "0.5", or "≈ 0.353553" where the
    number written is not the value.

    >>> written(0.5), written(0.125 ** 0.5), written(2.0, exact=False)
    ('0.5', '≈ 0.353553', '≈ 2')
    """
    text = rounded(value, places)
    return text if is_shown(value, exact=exact, places=places) else f"≈ {text}"
