"""The :class:`Dataset` type every lesson trains on."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from datasets.text import clean_name

MAX_NAME = 100  # characters of a column's name kept to show


@dataclass(frozen=True)
class Dataset:
    """A labelled 2-D data set.

    Attributes
    ----------
    name : str
        Shown in the sidebar and the page titles.
    X : ndarray of shape (N, 2)
        Finite float coordinates.
    y : ndarray of shape (N,)
        Labels in {-1, +1}.
    classes : tuple of str
        The user's names for class -1 and class +1 (for example ``("0", "1")``).
    columns : (str, str) or None
        The user's names for x1 and x2 (a file's header: ``("Hours studied", "Hours
        slept")``), or None when the data names them only x1 and x2.

    Notes
    -----
    The name and the class names come from files and links: they are kept
    as written except for control and bidi-override characters, which are
    dropped (:func:`datasets.text.clean_name`). The two class names must
    differ and not be empty once cleaned.
    """

    name: str
    X: np.ndarray
    y: np.ndarray
    classes: tuple[str, str] = ("-1", "+1")
    columns: tuple[str, str] | None = None

    def __post_init__(self) -> None:
        X = np.array(self.X, dtype=float)
        y = np.array(self.y, dtype=float)
        if X.ndim != 2 or X.shape[1] != 2:
            raise ValueError(f"X must have shape (N, 2), got {X.shape}")
        if y.shape != (X.shape[0],):
            raise ValueError(f"y must have shape ({X.shape[0]},), got {y.shape}")
        if not np.all(np.isfinite(X)):
            raise ValueError("X must be finite (no NaN or infinity)")
        if not np.all(np.isin(y, (-1.0, 1.0))):
            raise ValueError("y must contain only -1 and +1")
        X.setflags(write=False)
        y.setflags(write=False)
        object.__setattr__(self, "X", X)
        object.__setattr__(self, "y", y)
        negative, positive = (clean_name(str(name)) for name in self.classes)
        if not negative or not positive:
            raise ValueError("class names must not be empty")
        if negative == positive:
            raise ValueError(f"the two classes need different names, got {negative!r} twice")
        object.__setattr__(self, "name", clean_name(str(self.name)))
        object.__setattr__(self, "classes", (negative, positive))
        if self.columns is not None:
            names = tuple(clean_name(str(name))[:MAX_NAME] for name in self.columns)
            object.__setattr__(self, "columns", names if len(names) == 2 and all(names)
                               else None)

    def __len__(self) -> int:
        return len(self.y)
