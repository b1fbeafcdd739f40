"""ui/stepper_assets/scheme.js: a stepper follows the browser's colour scheme, drawing itself
again only while its drawing no longer matches the page, and stops when told."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

FOLLOW = """(staleFor) => {
  window.redraws = 0;
  window.stale = true;
  window.stopScheme = pl.followScheme(() => window.stale, () => {
    window.redraws += 1;
    if (window.redraws >= staleFor) window.stale = false;  // drawn again: it matches now
  });
}"""


def test_a_change_of_scheme_redraws_until_the_drawing_matches_and_not_after_a_stop(js):
    js.emulate_media(color_scheme="light")
    js.evaluate(FOLLOW, 2)
    js.emulate_media(color_scheme="dark")
    js.wait_for_timeout(3_500)  # every check of scheme.js's SCHEME_CHECKS_MS has run
    assert js.evaluate("() => window.redraws") == 2  # stale at the first two checks only
    js.evaluate("() => { window.stale = true; window.redraws = 0; window.stopScheme(); }")
    js.emulate_media(color_scheme="light")
    js.wait_for_timeout(3_500)
    assert js.evaluate("() => window.redraws") == 0
