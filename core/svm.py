"""The SVM lesson's core: the exact maximum margin (:mod:`core.max_margin`), the soft margin
(:mod:`core.soft_margin`), subgradient descent (:mod:`core.descent`) and how they generalise
(:mod:`core.evaluation`). This module keeps the contract's import path."""

from core.max_margin import MaxMargin, max_margin  # noqa: F401
