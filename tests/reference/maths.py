"""The maths of a perceptron's step written out with its numbers, as LaTeX: the reference.

The page writes the same lines in MathML (ui/stepper_assets/maths.js), with the same
numbers in the same order; tests/browser/js/test_maths.py holds it to these. The SVM's
step is lessons.svm.figures.svm_step_lines, which the pages also show.
"""

from __future__ import annotations

import numpy as np

from viz.maths import num, signed, vec


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


def boundary_equation(w, b: float) -> str:
    """The boundary as an equation in x1, x2."""
    w = np.asarray(w, dtype=float)
    return rf"{num(w[0])}\,x_1 {signed(w[1])}\,x_2 {signed(b)} = 0"
