"""The wire format: a run packed as bytes for the page's wire.js, and the columns and
fingerprints that go into them."""

from __future__ import annotations

import hashlib
import json

import numpy as np

from core.decimals import MAX_DECIMALS, decimal_integers
from core.trace import Trace

_DTYPES = {"f8": np.float64, "f4": np.float32, "i4": np.int32, "i2": np.int16, "i1": np.int8,
           "u1": np.uint8}


def pack(header: dict, columns: dict[str, np.ndarray]) -> bytes:
    """A run as bytes: uint32 header length, the JSON header, then 8-byte aligned columns.

    Parameters
    ----------
    header : Header or dict
        JSON-serialisable facts about the run. ``columns`` and ``digest`` are
        added to it.
    columns : dict of str to ndarray
        1-D or 2-D arrays of a dtype in float64, float32, int32, int16, int8, uint8.

    Returns
    -------
    bytes
        What the page's ``unpack`` (ui/stepper_assets/wire.js) reads.
        ``header["digest"]`` changes whenever anything in the bytes does.

    Examples
    --------
    >>> blob = pack({"steps": 1}, {"b": np.array([0.0, 1.0])})
    >>> len(blob) % 8, int.from_bytes(blob[:4], "little") % 8
    (0, 4)
    """
    header = dict(header)  # a Header, or a test's plain dict
    codes = {np.dtype(v): k for k, v in _DTYPES.items()}
    arrays, layout = [], {}
    for name, values in columns.items():
        values = np.ascontiguousarray(values)
        if values.dtype not in codes:
            raise ValueError(f"column {name!r}: dtype {values.dtype} is not packable")
        arrays.append((name, values))
    body = bytearray()
    offsets = {}
    for name, values in arrays:
        body.extend(b"\0" * (-len(body) % 8))
        offsets[name] = len(body)
        body.extend(values.tobytes())
    digest = hashlib.blake2b(bytes(body), digest_size=8)
    digest.update(json.dumps(header, sort_keys=True).encode())
    # the header's length moves the columns: size it with over-long offsets, then pad
    for name, values in arrays:
        layout[name] = [codes[values.dtype], 10**12, int(values.size),
                        int(values.shape[1]) if values.ndim == 2 else 1]
    full = {**header, "digest": digest.hexdigest(), "columns": layout}
    text = json.dumps(full, separators=(",", ":")).encode()
    start = 4 + len(text)
    start += -start % 8
    for name in layout:
        layout[name][1] = start + offsets[name]
    text = json.dumps(full, separators=(",", ":")).encode()
    text += b" " * (start - 4 - len(text))  # JSON allows trailing spaces
    if 4 + len(text) != start:
        raise AssertionError("header does not fit its own offsets")
    return len(text).to_bytes(4, "little") + text + bytes(body)


def run_id(X, y, settings: dict) -> str:
    """A short fingerprint of a run: its data and its settings."""
    h = hashlib.blake2b(digest_size=8)
    h.update(np.ascontiguousarray(X, dtype=float).tobytes())
    h.update(np.ascontiguousarray(y, dtype=float).tobytes())
    h.update(repr(sorted(settings.items())).encode())
    return h.hexdigest()


def epoch_columns(trace: Trace) -> dict:
    """The epoch after each step, as the steps where it changes and its value from each: a few
    bytes per epoch, not two per step (the page's wire.js spreads them over the steps)."""
    epoch = np.asarray(trace.epoch, dtype=np.int64)
    at = np.flatnonzero(np.r_[True, epoch[1:] != epoch[:-1]])
    return {"epoch_k": at.astype(np.int32), "epoch_v": epoch[at].astype(np.int32)}


def exact_scale(trace: Trace, X) -> tuple[dict | None, bool]:
    """An exact run's common scale, ``{"x": kx, "w": kw}``: X times 10^kx and every w and b
    times 10^kw are integers (the page takes its decisions on them), and whether the page can
    write each a = w.x + b from them as one division by 10^(kx + kw) of integers below 2^53,
    which is the correctly rounded a the run reports. (None, False) for a run in floats."""
    if not getattr(trace, "exact", False) or not len(trace.W):
        return None, False
    xs = decimal_integers(X)
    ws = decimal_integers(np.column_stack([trace.W, trace.b]), max_decimals=2 * MAX_DECIMALS)
    if xs is None or ws is None:
        return None, False
    (kx, Xi), (kw, Wi) = xs, ws
    reach = (float(np.max(np.abs(Xi), initial=0.0)) * float(np.max(np.abs(Wi[:, :-1]), initial=0.0))
             * Xi.shape[1] + float(np.max(np.abs(Wi[:, -1]), initial=0.0)) * 10.0**kx)
    return {"x": kx, "w": kw}, bool(reach < 2**53 and kx + kw <= 22)
