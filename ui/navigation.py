"""A lesson reached through the sidebar opens at its top.

Streamlit keeps its main area's scroll from one page to the next: a view opened from a page
scrolled down (to press a button under the picture, or below a class's join card) showed the
new view that far down, its title and the class's bar off the screen. The page's address
changes (``history.pushState``) as the new page runs, or its own link in the sidebar was
clicked (Streamlit runs it again, the scroll kept): from then on the main area goes to its
top, and stays there while the new page draws (an element drawn or resized above the picture
would otherwise move the view down), until the reader scrolls, clicks or types.
"""

from __future__ import annotations

# drawn with every page (ui.lecture.lecture_css); installs itself once a window
TOP_SCRIPT = """
<script>
(() => {
  if (window.plOpensAtTop) return;
  window.plOpensAtTop = true;
  const main = () => document.querySelector('[data-testid="stMain"]');
  let until = 0;  // while the new page draws: kept at its top
  const top = () => {
    const box = main();
    if (box && box.scrollTop !== 0) box.scrollTop = 0;
  };
  const hold = () => { if (performance.now() < until) top(); };
  const reader = () => { until = 0; };  // the reader's own scroll is theirs
  for (const kind of ['wheel', 'touchstart', 'keydown', 'pointerdown']) {
    addEventListener(kind, reader, {capture: true, passive: true});
  }
  document.addEventListener('scroll', (event) => {
    if (event.target === main()) hold();
  }, {capture: true, passive: true});
  const opened = () => {
    until = performance.now() + 2000;
    top();
  };
  // a lesson's link in the sidebar: the lesson again from its top, the page's own as another's
  document.addEventListener('click', (event) => {
    if (event.target.closest?.('[data-testid="stSidebarNav"] a')) opened();
  });
  const push = history.pushState;
  history.pushState = function (...args) {
    const before = location.pathname;
    const done = push.apply(this, args);
    if (location.pathname !== before) opened();
    return done;
  };
})();
</script>
"""
