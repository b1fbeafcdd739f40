"""Share on every part of every lesson, and own data in a link: carried, or said plainly."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from datasets import Dataset
from lessons import svm, variants
from tests.apptest import assert_clean, by_key, upload
from tests.test_lesson import open_link
from ui.url_state import MAX_LINK_CHARS, MAX_LINK_POINTS, decode_points, encode_points

PARTS = [
    ("step_through", {}),
    ("margin", {}),
    ("boolean", {}),
    ("boolean", {"fn": "XOR"}),
    ("nonseparable", {"data": "xor-0-1"}),
    *(("svm", {"part": part}) for part in svm.PARTS.names),
    *(("variants", {"part": part}) for part in variants.PARTS.names),
    ("your_data", {"pts": "0,0,-;1,1,+"}),
]


def share_links(at) -> list[str]:
    """The link in every Share popover on the page."""
    links = []
    for popover in at.get("popover"):
        if popover.proto.popover.label == "Share":
            links += [code.value for code in popover.get("code")]
    return links


def query(link: str) -> dict:
    return dict(parse_qsl(urlsplit(link).query, keep_blank_values=True))


@pytest.mark.parametrize(("page", "params"), PARTS, ids=lambda v: str(v))
def test_every_part_has_one_share_link_to_exactly_this_view(page, params):
    at = open_link({**params, "lecture": "1"}, page)
    at.run()  # a second run, as after any click: the link is the address bar's
    assert_clean(at)
    links = share_links(at)
    assert len(links) == 1, links
    assert query(links[0]) == dict(at.query_params)


def drawn_points(n: int, seed: int = 0) -> Dataset:
    """n points on the drawing canvas's half grid."""
    rng = np.random.default_rng(seed)
    X = rng.integers(-20, 21, size=(n, 2)) / 2
    return Dataset("d", X, np.where(np.arange(n) % 2 == 0, -1.0, 1.0), ("no", "yes"))


def test_more_than_60_points_travel_packed_and_open_as_the_same_points():
    data = drawn_points(300)
    packed = encode_points(data)
    assert packed.startswith("~") and len(packed) <= MAX_LINK_CHARS
    at = open_link({"pts": packed, "cls": "no,yes"}, "step_through")
    assert_clean(at)
    assert not at.toast
    assert by_key(at.selectbox, "data.choice").value == "Your data"
    assert "300 points" in at.sidebar.caption[0].value
    link = query(share_links(at)[0])
    back = decode_points(link["pts"], link["cls"])
    np.testing.assert_array_equal(back.X, data.X)
    np.testing.assert_array_equal(back.y, data.y)
    assert back.classes == ("no", "yes")


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.floats(-1e6, 1e6, allow_subnormal=False),
                          st.floats(-1e6, 1e6, allow_subnormal=False), st.booleans()),
                min_size=1, max_size=150))
def test_any_points_read_back_exactly(rows):
    X = np.array([(a, b) for a, b, _ in rows]) + 0.0
    y = np.array([1.0 if c else -1.0 for *_, c in rows])
    text = encode_points(Dataset("d", X, y))
    assert text.startswith("~") == (len(rows) > MAX_LINK_POINTS)
    back = decode_points(text, None)
    np.testing.assert_array_equal(back.X, X)
    np.testing.assert_array_equal(back.y, y)


@pytest.mark.parametrize("bad", ["~", "~abc", "~" + "A" * 40, "~eJwLycxVAAAJ+gK8"])
def test_a_damaged_packed_link_falls_back_with_a_notice(bad):
    at = open_link({"pts": bad}, "step_through")
    assert_clean(at)
    assert at.toast and "pts" in at.toast[0].value
    assert by_key(at.selectbox, "data.choice").value != "Your data"


def test_a_packed_value_never_inflates_past_its_limit():
    import base64
    import zlib

    bomb = base64.urlsafe_b64encode(zlib.compress(b"1,1,+;" * 2_000_000, 9)).decode()
    with pytest.raises(ValueError, match="cannot be read"):
        decode_points("~" + bomb.rstrip("="), None)


def test_too_many_points_for_a_link_say_so_and_offer_the_csv():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(400, 2))  # full-precision floats: far beyond a link
    rows = "\n".join(f"{float(a)!r},{float(b)!r},{'yes' if i % 2 else 'no'}"
                     for i, (a, b) in enumerate(X))
    at = open_link({}, "step_through")
    upload(at, "mine.csv", ("x1,x2,label\n" + rows).encode())
    at.run()
    assert_clean(at)
    assert by_key(at.selectbox, "data.choice").value == "Your data"
    assert at.query_params["data"] == "your-data" and "pts" not in at.query_params
    share = next(p for p in at.get("popover") if p.proto.popover.label == "Share")
    said = " ".join(w.value for w in share.get("warning"))
    assert "400 points do not fit in a link" in said and "download them as CSV" in said
    button = share.get("download_button")[0]
    assert "CSV" in button.proto.label
    # and the one who opens that link is told, not silently shown other data
    opened = open_link(dict(at.query_params), "step_through")
    assert_clean(opened)
    assert any("too many for a link" in t.value for t in opened.toast)
    assert by_key(opened.selectbox, "data.choice").value == "Lecture notes' example: 4 points"

