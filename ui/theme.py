"""The page's own CSS on every lesson: text colours that meet WCAG's contrast in Streamlit's light
and dark themes, from viz.palette; focus rings, a phone's layout, less motion when asked; and a
small script that lets a keyboard reach whatever scrolls sideways.

A colour is written ``light-dark(light, dark)``: the browser takes the one that matches the colour
scheme Streamlit gives its app (dark when the browser asks for it), after a plain light colour
for browsers that do not know light-dark().
"""

from __future__ import annotations

from viz import palette


def either(pair: tuple[str, str]) -> str:
    """A (light, dark) pair as one CSS colour that follows the page's scheme.

    >>> either(("black", "white"))
    'light-dark(black, white)'
    """
    return f"light-dark({pair[0]}, {pair[1]})"


def _colour(selector: str, pair: tuple[str, str], prop: str = "color") -> str:
    """A rule that sets ``prop``: the light colour, then both where the browser knows how."""
    if prop.startswith("--"):  # a variable takes any value: only a browser that knows gets both
        return (f"{selector} {{ {prop}: {pair[0]}; }} @supports (color: {either(pair)}) "
                f"{{ {selector} {{ {prop}: {either(pair)}; }} }}")
    return f"{selector} {{ {prop}: {pair[0]}; {prop}: {either(pair)}; }}"


# the container that holds the page's style and script (ui.lecture.lecture_css): no room
PAGE_STYLE_KEY = "pl-page-style"
# the widget that ends every run (ui.state.shown_marker): no room, nothing to read
SHOWN_KEY = "pl-shown"
# a lesson's title row with its introduction as the title's help, and (key + "-text") the
# introduction as a caption under it (ui.lesson.Lesson.title): one of the two shows
INTRO_KEY = "pl-intro"
# the row of a lesson's parts (ui.lesson.Lesson's picker): on a phone one row that scrolls
PARTS_KEY = "pl-parts"


def page_css() -> str:
    """Every lesson's colour rules (see the module's docstring), as a <style> element."""
    code = '.stApp [data-testid="stCode"]'
    rules = [
        # captions: Streamlit fades its text to 60% (3.8:1 on white); ours is opaque
        _colour('.stApp [data-testid="stCaptionContainer"], '
                '.stApp [data-testid="stCaptionContainer"] p', palette.MUTED_TEXT),
        '.stApp [data-testid="stCaptionContainer"] { opacity: 1; }',
        # the stepper's own colours (ui/stepper_assets/stepper.css reads them)
        _colour(".stApp", palette.MISTAKE_TEXT, "--pl-mistake-text"),
        _colour(".stApp", palette.ON_PRIMARY, "--pl-on-primary"),
        # a main button's label on the theme's accent
        _colour('.stApp [data-testid="stBaseButton-primary"]', palette.ON_PRIMARY),
        # code: Streamlit's syntax colours are the same in both themes, some under 4.5:1
        *(_colour(f"{code} .token.{name}", pair) for name, pair in palette.CODE_TOKENS.items()),
        # a focus ring where Streamlit shows little or none: its checkboxes, toggles and
        # radios (the input itself is hidden), the sidebar's links, the main area (it takes
        # the focus to scroll), Plotly's toolbar, shown while a key is on it, and a popover's
        # buttons (Share's Copy)
        _colour(".stApp label:has(input:is([type=checkbox], [type=radio]):focus-visible), "
                '.stApp [data-testid="stSidebarNavLink"]:focus-visible, '
                '.stApp [data-testid="stMain"]:focus-visible, .stApp .modebar-btn:focus-visible, '
                '[data-testid="stPopoverBody"] button:focus-visible',
                palette.PRIMARY, "outline-color"),
        ".stApp label:has(input:is([type=checkbox], [type=radio]):focus-visible), "
        '.stApp [data-testid="stSidebarNavLink"]:focus-visible, '
        '[data-testid="stPopoverBody"] button:focus-visible, '
        ".stApp .modebar-btn:focus-visible { outline-style: solid; outline-width: 2px; "
        "outline-offset: 2px; border-radius: 0.25rem; }",
        '.stApp [data-testid="stMain"]:focus-visible { outline-style: solid; '
        "outline-width: 2px; outline-offset: -2px; }",
        ".stApp .modebar:focus-within { opacity: 1 !important; }",
        # a code box's Copy (Share's link) shows while the focus is in the box, not on hover only
        # (at once: a Tab during its fade-in would pass it by)
        '[data-testid="stCode"]:focus-within > div { opacity: 1 !important; '
        "visibility: visible !important; transition: none !important; }",
        # Streamlit's header band is see-through where the page starts high (lecture mode) and
        # lies over the page's top row: clicks pass through it but to its own buttons
        '.stApp [data-testid="stHeader"], .stApp [data-testid="stHeader"] '
        '[data-testid="stToolbar"] { pointer-events: none; }',
        '.stApp [data-testid="stHeader"] :is(button, a, [role=button], input) '
        "{ pointer-events: auto; }",
        # (its box and the box Streamlit wraps it in; :has() is matched only when an element
        # of that class comes or goes, not on every change of the page)
        f".stApp .st-key-{PAGE_STYLE_KEY}, .stApp div:has(> .st-key-{PAGE_STYLE_KEY}) "
        "{ display: none; }",
        f".stApp .st-key-{SHOWN_KEY} {{ display: none; }}",
        # a lesson's sections are h2 under its h1 (a screen reader's list of headings skips no
        # level), set at the size of Streamlit's h3; the sidebar's own headings stay h3
        '.stApp [data-testid="stMainBlockContainer"] h2 { font-size: 1.75rem; '
        "line-height: 1.2; padding: 0.75rem 0 1rem; }",
        # a long line wraps rather than scroll inside a box a keyboard cannot reach
        # (the highlighter writes white-space on the element itself)
        f"{code} pre, {code} pre code {{ white-space: pre-wrap !important; "
        "overflow-wrap: anywhere; }",
    ]
    return "<style>\n" + "\n".join(rules) + "\n" + MEDIA_CSS + "</style>\n"


# A touch screen (a finger, not a mouse): every control a finger can hit is 44 x 44 CSS px at
# least (WCAG 2.5.5, and Apple's and Google's guides). Streamlit draws its buttons 40 px high, its
# header's buttons and the charts' toolbar (Plotly's modebar) 28 and 24 x 22, its help icons 16:
# each grows to 44 here, the small ones by a margin that takes back what they grew, so that the
# text beside them does not move; a help icon grows over the text on its left, since it often ends
# a line at the page's right edge, and a page that scrolls sideways on a phone is worse. The
# charts' toolbar stays where Plotly puts it, over the chart's top right corner, each button
# 44 px (Reset axes, after a zoom, one tap away).
TOUCH = "(pointer: coarse)"
TOUCH_CSS = f"""
@media {TOUCH} {{
  .stApp :is(button[data-testid^="stBaseButton"], [data-testid="stPopoverButton"],
             [data-testid="stButtonGroup"] button, [data-testid="stNumberInput"] button,
             [data-testid="stExpandSidebarButton"], [data-testid="stSidebarCollapseButton"] button,
             [data-testid="stMainMenu"] button) {{
    min-height: 44px; min-width: 44px; }}
  .stApp [data-testid="stTooltipIcon"] button:not([data-testid^="stBaseButton"]) {{
    width: 44px !important;
    height: 44px !important; margin: -14px -4px -14px -24px !important; display: inline-flex;
    align-items: center; justify-content: center; }}
  .stApp :is([data-testid="stSidebarNavLink"], [data-testid="stPageLink"] a,
             a[data-testid^="stPageLink"]) {{ min-height: 44px; }}
  .stApp :is([data-testid="stCheckbox"], [data-testid="stRadioOption"]) label,
  .stApp label[data-testid="stRadioOption"], .stApp [data-testid="stExpander"] summary {{
    min-height: 44px; align-items: center; }}
  /* a radio of short words side by side (the class +1 picker: "ja", "no") is a finger wide */
  .stApp label[data-testid="stRadioOption"] {{ min-width: 44px; }}
  .stApp :is(.react-aria-ComboBox, [data-baseweb="select"]) > div,
  .stApp :is([data-testid="stNumberInputField"], [data-testid="stTextInputField"],
             [data-testid="stSlider"] input[type=range]) {{ min-height: 44px; }}
  .stApp .js-plotly-plot .plotly .modebar-btn {{ width: 44px; height: 44px !important;
    display: inline-flex !important; align-items: center; justify-content: center;
    padding: 0 !important; }}
  .stApp .js-plotly-plot .plotly .modebar-btn svg {{ width: 22px; height: 22px;
    position: static !important; top: auto !important; }}
}}
"""


# Less motion when asked; and a phone (up to 640 px wide, either way up): the lesson takes the
# width, its title is one size smaller, and lecture mode's projector type (21 px,
# ui/lecture.py) is a projector's only.
PHONE = "(max-width: 640px)"
MEDIA_CSS = f"""
/* less motion when the system asks for it: Streamlit's own transitions and spinners too */
@media (prefers-reduced-motion: reduce) {{
  .stApp *, .stApp *::before, .stApp *::after {{ transition-duration: 0s !important;
    animation-duration: 0s !important; animation-iteration-count: 1 !important;
    scroll-behavior: auto !important; }}
}}
@media {PHONE} {{
  :root {{ font-size: 16px; }}
  .stApp [data-testid="stMainBlockContainer"] {{ padding: 3.5rem 0.6rem 2rem; }}
  .stApp [data-testid="stMainBlockContainer"] h1 {{ font-size: 1.4rem; line-height: 1.25;
    padding: 0.25rem 0; }}
  /* the picture first: the introduction folds into the title's help, and a picker beside
     the title (Boolean's function) as narrow as a finger allows, so that Share stays in its
     row rather than taking one more above the chart */
  .stApp .st-key-{INTRO_KEY}-text {{ display: none; }}
  .stApp .st-key-{INTRO_KEY} [data-testid="stButtonGroup"] button {{
    padding-left: 0.4rem; padding-right: 0.4rem; min-width: 44px; }}
  /* ... and the lesson's parts in one row that scrolls sideways, as a phone's tabs do */
  .stApp .st-key-{PARTS_KEY} [data-testid="stButtonGroup"] > div {{ flex-wrap: nowrap;
    overflow-x: auto; }}
  .stApp .st-key-{PARTS_KEY} [data-testid="stButtonGroup"] button {{ flex: none; }}
}}
/* and on a wide window's stepping page (stepper.css's .pl-wide-page) */
@media not {PHONE} {{
  html:not(.pl-wide-page) .stApp .st-key-{INTRO_KEY} h1 [data-testid="stTooltipIcon"] {{
    display: none; }}
}}
{TOUCH_CSS}"""

# Out of lecture mode (which has its own, ui/lecture.py): a short window (a tablet on its side,
# a small laptop) has a slimmer title over the lesson.
SHORT_WINDOW_CSS = """
<style>
@media (max-height: 820px) and (min-width: 641px) {
  .stApp [data-testid="stMainBlockContainer"] { padding-top: 3.5rem; }
  .stApp [data-testid="stMainBlockContainer"] h1 { font-size: 2rem; padding: 0.25rem 0; }
}
</style>
"""


# A formula or a table wider than a phone scrolls sideways inside its own box: such a box takes
# the focus (tabindex 0), so that a keyboard can scroll it too, and says what it is. Changes
# inside a stepper (a step redraws its maths every frame) are not looked at. On a touch screen
# the sidebar is folded as the page opens.
PAGE_SCRIPT = """
<script>
(() => {
  if (window.plScrollers) return;
  window.plScrollers = true;
  const boxes = '.katex-display, [data-testid="stTable"] > div';
  let queued = false;
  const mark = () => {
    queued = false;
    for (const box of document.querySelectorAll(boxes)) {
      const scrolls = box.scrollWidth > box.clientWidth + 1;
      if (scrolls && !box.hasAttribute('tabindex')) {
        box.tabIndex = 0;
        box.setAttribute('role', 'group');
        box.setAttribute('aria-label', (box.matches('.katex-display') ? 'Formula' : 'Table')
                         + ', wider than the page: scroll it sideways');
        box.dataset.plScrolls = '';
      } else if (!scrolls && box.dataset.plScrolls !== undefined) {
        for (const name of ['tabindex', 'role', 'aria-label', 'data-pl-scrolls']) {
          box.removeAttribute(name);
        }
      }
    }
  };
  const queue = () => {
    if (!queued) { queued = true; requestAnimationFrame(mark); }
  };
  new MutationObserver((changes) => {
    if (changes.some((c) => !c.target.closest?.('.pl-stepper'))) queue();
  }).observe(document.body, {childList: true, subtree: true});
  addEventListener('resize', queue);
  queue();
  // A touch screen (a tablet) shows the lesson, not the settings: Streamlit opens its sidebar
  // by itself on a screen wider than a phone's, over the lesson; it is folded once, as the
  // page opens, and stays one tap away.
  if (matchMedia('(pointer: coarse)').matches && !window.plSidebarFolded) {
    window.plSidebarFolded = true;
    const since = performance.now();
    const fold = () => {
      const bar = document.querySelector('[data-testid="stSidebar"]');
      const button = document.querySelector('[data-testid="stSidebarCollapseButton"] button');
      if (bar && button) {
        if (bar.getAttribute('data-collapsed') === 'false') button.click();
      } else if (performance.now() - since < 5000) {
        requestAnimationFrame(fold);
      }
    };
    fold();
  }
  // A popover (Share, Keys) stands in the tab order right after its button, though Streamlit
  // draws it at the foot of the page: once open, the focus goes to its first control (Share's
  // link, then Copy).
  const TABBABLE = 'a[href], button:not(:disabled), input:not(:disabled):not([type=hidden]), '
    + 'select:not(:disabled), textarea:not(:disabled), [tabindex]:not([tabindex="-1"])';
  const POPOVER = '[data-testid="stPopoverBody"]';
  // (Share's Copy is hidden until the focus is on its link: it counts)
  const tabbable = (root) => [...root.querySelectorAll(TABBABLE)]
    .filter((el) => el.checkVisibility());
  document.addEventListener('click', (event) => {
    const button = event.target.closest?.('[data-testid="stPopoverButton"]');
    if (!button) return;
    const since = performance.now();
    let opened = false;
    const enter = () => {
      const open = button.getAttribute('aria-expanded') === 'true';
      opened ||= open;
      if (opened && !open) return;  // closed again
      // its body, the one open (Streamlit may keep a closed one in the page)
      const body = [...document.querySelectorAll(POPOVER)].find((el) => el.checkVisibility());
      const first = open && body && tabbable(body)[0];
      if (first) {
        // unless the reader went elsewhere meanwhile (its content may take a moment)
        const at = document.activeElement;
        if (at === button || at === document.body || (body.contains(at) && !at.matches(TABBABLE))) {
          first.focus();
        }
      } else if (performance.now() - since < 10000) {
        requestAnimationFrame(enter);
      }
    };
    requestAnimationFrame(enter);
  }, true);
})();
</script>
"""
