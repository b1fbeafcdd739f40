"""The maths of a perceptron's step written out with its numbers, as LaTeX: the reference.

The page writes the same lines in MathML (ui/stepper_assets/maths.js), with the same
numbers in the same order; tests/browser/js/test_maths.py holds it to these. The SVM's
step is lessons.svm.figures.svm_step_lines, which the pages also show.
"""

from __future__ import annotations

import numpy as np

from viz.maths import chain_signs, eq_sign, num, signed, vec


def activation_lines(x, w, b: float, a: float, bias: bool = True, signs=("=", "=")) -> str:
    """a = w.x + b written out term by term with the result, with these two signs."""
    terms = " + ".join(f"({num(wi)})({num(xi)})" for wi, xi in zip(w, x, strict=True))
    if bias:
        terms += f" {signed(b)}"
    return (rf"\begin{{aligned}} a &= \mathbf{{w}}^\top \mathbf{{x}} + b \\ &{signs[0]} {terms} \\"
            rf" &{signs[1]} {num(a)} \end{{aligned}}")


def step_lines(*, x, y: float, w_before, b_before: float, w_after, b_after: float,
               a: float, updated: bool, eta: float, bias: bool = True, exact: bool = True,
               start: bool = False) -> list[str]:
    """The LaTeX lines that explain one step: the activation, y*a, and the update if any.

    Each line's signs by viz.maths.chain_signs: the data and eta are given; the weights before
    the step are the run's own (``exact``), or given at its ``start``.
    """
    def signs(given, computed, result):
        return chain_signs(given, computed, result, exact=exact, latex=True)

    wb = [list(w_before), b_before if bias else 0.0]
    given, computed = ([list(x), *wb], []) if start else ([list(x)], wb)
    lines = [activation_lines(x, w_before, b_before, a, bias, signs(given, computed, a))]
    ya = y * a
    verdict = r"\le 0 \\ &\Rightarrow \text{mistake: update}" if updated \
        else r"> 0 \\ &\Rightarrow \text{correct: no update}"
    is_, product = signs([y], [a], ya)
    lines.append(rf"\begin{{aligned}} y\,a &{is_} ({num(y)})({num(a)}) {product} {num(ya)} "
                 rf"{verdict} \end{{aligned}}")
    if updated:
        is_, total = signs([eta, y, list(x), *given[1:2]], computed[:1], list(w_after))
        lines.append(
            rf"\begin{{aligned}} \mathbf{{w}} &\leftarrow \mathbf{{w}} + \eta\, y\, \mathbf{{x}}"
            rf" \\ &{is_} {vec(w_before)} + ({num(eta)})({num(y)}){vec(x)}"
            rf" \\ &{total} {vec(w_after)} \end{{aligned}}"
        )
        if bias:
            is_, total = signs([eta * y, *given[2:]], computed[1:], b_after)
            lines.append(
                rf"b \leftarrow b + \eta\, y {is_} {num(b_before)} {signed(eta * y)} {total} "
                rf"{num(b_after)}"
            )
    return lines


def boundary_equation(w, b: float) -> str:
    """The boundary as an equation in x1, x2."""
    w = np.asarray(w, dtype=float)
    return rf"{num(w[0])}\,x_1 {signed(w[1])}\,x_2 {signed(b)} {eq_sign([*w, b], latex=True)} 0"
