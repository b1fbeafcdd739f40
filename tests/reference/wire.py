"""The run as the page rebuilds it from the server's bytes, in Python: the reference.

ui.stepper.pack sends a run as bytes (a JSON header, then typed columns) and leaves
out what the page can rebuild: the weights between updates, the SVM's descent from
its start, a = w.x + b, the epochs, the averaged weights. The page's
ui/stepper_assets/wire.js rebuilds them; :func:`unpack` does the same here, operation
for operation, so that tests read what a page is sent (tests/apptest.py,
bench/payload.py) and wire.js is checked against it bit for bit
(tests/browser/js/test_wire.py).
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np

DTYPES = {"f8": np.float64, "f4": np.float32, "i4": np.int32, "i2": np.int16, "i1": np.int8,
          "u1": np.uint8}


def unpack(blob: bytes) -> tuple[dict, dict[str, np.ndarray]]:
    """The header and the columns of a packed run, with what the page rebuilds.

    Examples
    --------
    >>> from ui.stepper import pack
    >>> header, columns = unpack(pack({"steps": 1}, {"b": np.array([0.0, 1.0])}))
    >>> header["steps"], columns["b"].tolist()
    (1, [0.0, 1.0])
    """
    length = int.from_bytes(blob[:4], "little")
    header = json.loads(blob[4:4 + length])
    columns = {}
    for name, (code, offset, size, width) in header["columns"].items():
        values = np.frombuffer(blob, dtype=np.dtype(DTYPES[code]), count=size, offset=offset)
        columns[name] = values.reshape(-1, width) if width > 1 else values
    if "updated" in columns:
        moves = columns["updated"].astype(np.int64)
        moves[:1] = 0
        if "mistakes" not in columns:  # the start's count plus the updates so far
            start = int(columns["mistakes0"][0]) if "mistakes0" in columns else 0
            columns["mistakes"] = start + np.cumsum(moves)
        for name in header.get("held", ()):  # rows sent only at the start and at updates
            columns[name] = columns[name][np.cumsum(moves)]
    if header.get("descent"):  # the SVM's weights, step by step from their start
        columns["W"], columns["b"] = descend(header, columns)
    if {"W", "updated"} <= set(columns) and "activation" not in columns:  # a = w.x + b
        columns["activation"] = (exact_activation if header.get("scale") else activation)(
            header, columns)
    if "epoch_k" in columns:  # the steps where the epoch changes, and its value from each
        at, value = columns["epoch_k"], columns["epoch_v"]
        columns["epoch"] = value[np.searchsorted(at, np.arange(header["steps"] + 1),
                                                 side="right") - 1].astype(np.int32)
    if header.get("averaged"):  # mu / k: the mean of the weights after each of the k visits
        k = np.arange(1, header["steps"] + 1)
        columns["Wavg"] = np.zeros_like(columns["W"])
        columns["bavg"] = np.zeros_like(columns["b"])
        columns["Wavg"][1:] = np.cumsum(columns["W"][1:], axis=0) / k[:, None]
        columns["bavg"][1:] = np.cumsum(columns["b"][1:]) / k
    return header, columns


def descend(header: dict, columns: dict) -> tuple[np.ndarray, np.ndarray]:
    """W and b of an SVM run from its first row, one step of core/descent.py at a time.

    With its floating-point operations in its order: eta_t = eta0 / sqrt(t);
    w <- (1 - eta_t lam) w; on a hinge step w <- w + eta_t (x y), b <- b + eta_b y
    (eta_b = eta_t with a bias, else 0). A padded step (index -1) keeps them.
    """
    lam, eta0 = header["svm"]["lam"], header["svm"]["eta0"]
    X, y, index = columns["X"], columns["y"], columns["index"]
    updated, t0 = columns["updated"], header.get("t0", 0)
    w, b = [float(v) for v in columns["W"][0]], float(columns["b"][0])
    W, B = [list(w)], [b]
    for k in range(1, header["steps"] + 1):
        i = int(index[k])
        if i >= 0:
            eta = eta0 / math.sqrt(t0 + k)
            if lam:
                w = [(1.0 - eta * lam) * v for v in w]
            if updated[k]:
                yi = float(y[i])
                w = [v + eta * (float(x) * yi) for v, x in zip(w, X[i], strict=True)]
                b = b + (eta if header["bias"] else 0.0) * yi
        W.append(w)
        B.append(b)
    return np.array(W), np.array(B)


def activation(header: dict, columns: dict) -> np.ndarray:
    """a = w.x + b before each step of a run in floats (the SVM's descent), as core/scan.py
    takes it: the margin y a = (y x, y).(w, b) summed from +0 over the coordinates, then b's
    term, and a = y (y a), so that a zero a of an example with y = -1 is -0 (NaN where
    nothing is visited)."""
    W, b, X, index = columns["W"], columns["b"], columns["X"], columns["index"]
    W = W.reshape(len(W), -1)
    rows = np.asarray(index[1:], dtype=np.int64)
    x = np.asarray(X, dtype=np.float64).reshape(len(X), -1)[np.maximum(rows, 0)]
    y = np.asarray(columns["y"], dtype=np.float64)[np.maximum(rows, 0)]
    margin = np.zeros(len(rows))
    for j in range(x.shape[1]):
        margin = margin + (x[:, j] * y) * W[:-1, j]
    a = y * (margin + y * b[:-1])
    a[rows < 0] = np.nan
    return np.r_[np.nan, a]


def exact_activation(header: dict, columns: dict) -> np.ndarray:
    """a = w.x + b before each step of an exact run: the exact value (Fractions of the short
    decimals the floats are), correctly rounded (NaN where nothing is visited)."""
    W, b, X, index = columns["W"], columns["b"], columns["X"], columns["index"]
    W = W.reshape(len(W), -1)
    X = np.asarray(X, dtype=np.float64).reshape(len(X), -1)
    kx, kw = header["scale"]["x"], header["scale"]["w"]
    a = [math.nan]
    for k in range(1, header["steps"] + 1):
        i = int(index[k])
        if i < 0:
            a.append(math.nan)
            continue
        exact = sum((Fraction(round(float(w) * 10**kw), 10**kw)
                     * Fraction(round(float(x) * 10**kx), 10**kx)
                     for w, x in zip(W[k - 1], X[i], strict=True)), Fraction(0))
        a.append(float(exact + Fraction(round(float(b[k - 1]) * 10**kw), 10**kw)))
    return np.array(a)
