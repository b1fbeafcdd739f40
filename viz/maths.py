"""The maths of a step written out with its real numbers, as LaTeX for the pages."""

from __future__ import annotations


def num(value: float) -> str:
    """A number as a student would write it: 0.35, not 0.35000000000000003."""
    value = float(value)
    if value == 0:
        return "0"
    text = f"{round(value, 10):.6g}"
    return text.replace("e+0", "e").replace("e-0", "e-")


def vec(values) -> str:
    """A vector as a LaTeX tuple."""
    return r"\left(" + ",\\ ".join(num(v) for v in values) + r"\right)"


def signed(value: float) -> str:
    """A term with its sign, for sums written out: + 0.2 or - 0.1."""
    return f"- {num(-value)}" if value < 0 else f"+ {num(value)}"


def share(count: int, total: int) -> str:
    """A count out of a total with its percentage, '3 / 60 (5.0 %)'; a dash when total is 0."""
    return f"{count} / {total} ({100 * count / total:.1f} %)" if total else "—"


def activation_lines(x, w, b: float, a: float, bias: bool = True) -> str:
    """a = w.x + b written out term by term with the result."""
    terms = " + ".join(f"({num(wi)})({num(xi)})" for wi, xi in zip(w, x, strict=True))
    if bias:
        terms += f" {signed(b)}"
    return (rf"\begin{{aligned}} a &= \mathbf{{w}}^\top \mathbf{{x}} + b \\ &= {terms} \\"
            rf" &= {num(a)} \end{{aligned}}")


def step_lines(*, x, y: float, w_before, b_before: float, w_after, b_after: float,
               a: float, updated: bool, eta: float, bias: bool = True) -> list[str]:
    """The LaTeX lines that explain one step: the activation, y*a, and the update if any."""
    lines = [activation_lines(x, w_before, b_before, a, bias)]
    ya = y * a
    verdict = r"\le 0 \\ &\Rightarrow \text{mistake: update}" if updated \
        else r"> 0 \\ &\Rightarrow \text{correct: no update}"
    lines.append(rf"\begin{{aligned}} y\,a &= ({num(y)})({num(a)}) = {num(ya)} {verdict}"
                 r"\end{aligned}")
    if updated:
        lines.append(
            rf"\begin{{aligned}} \mathbf{{w}} &\leftarrow \mathbf{{w}} + \eta\, y\, \mathbf{{x}}"
            rf" \\ &= {vec(w_before)} + ({num(eta)})({num(y)}){vec(x)}"
            rf" \\ &= {vec(w_after)} \end{{aligned}}"
        )
        if bias:
            lines.append(
                rf"b \leftarrow b + \eta\, y = {num(b_before)} {signed(eta * y)} = {num(b_after)}"
            )
    return lines

