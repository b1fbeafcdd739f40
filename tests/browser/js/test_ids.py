"""ids.js: an element's id, unique on the page, with the prefix its maker gives."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser


def test_ids_are_unique_carry_their_prefix_and_name_their_element(js):
    got = js.evaluate("""() => {
      const ids = Array.from({ length: 2000 }, (_, i) => pl.newId(i % 2 ? "pl-more" : undefined));
      const found = ids.slice(0, 20).every((id) => {
        const made = pl.html("div", { id }, document.body);
        return document.getElementById(id) === made && document.querySelector(`#${id}`) === made;
      });
      return { ids, found };
    }""")
    ids = got["ids"]
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"pl-[0-9a-z]+", i) for i in ids[0::2])
    assert all(re.fullmatch(r"pl-more-[0-9a-z]+", i) for i in ids[1::2])
    assert got["found"]
