"""keys.js: which key presses a page leaves alone, for the stepper's keys (controls.js) and a
clicker's (plan.js) alike: a modified key, one already taken, a field's own."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

# every kind of target a key press may come from: (a name, how to make it, whether it is a
# field that keeps its keys: the reference, written from what each element does with keys)
TARGETS = {
    "page": ("document.body", False),
    "div": ("pl.html('div', { tabindex: '0' }, document.body)", False),
    "button": ("pl.html('button', {}, document.body)", False),
    "the stepper's slider": ("pl.html('input', { type: 'range', class: 'pl-slider' },"
                             " pl.html('div', { class: 'pl-stepper' }, document.body))", False),
    "a slider out of a stepper": (
        "pl.html('div', { class: 'pl-slider', role: 'slider' }, document.body)", True),
    "range": ("pl.html('input', { type: 'range' }, document.body)", False),
    "checkbox": ("pl.html('input', { type: 'checkbox' }, document.body)", False),
    "radio": ("pl.html('input', { type: 'radio' }, document.body)", False),
    "submit": ("pl.html('input', { type: 'submit' }, document.body)", False),
    "text": ("pl.html('input', { type: 'text' }, document.body)", True),
    "input with no type": ("pl.html('input', {}, document.body)", True),
    "TEXT in capitals": ("pl.html('input', { type: 'TEXT' }, document.body)", True),
    "number": ("pl.html('input', { type: 'number' }, document.body)", True),
    "search": ("pl.html('input', { type: 'search' }, document.body)", True),
    "textarea": ("pl.html('textarea', {}, document.body)", True),
    "select": ("pl.html('select', {}, document.body)", True),
    "an option's text in a select": (
        "pl.html('span', {}, pl.html('select', {}, document.body))", True),
    "combobox": ("pl.html('div', { role: 'combobox', tabindex: '0' }, document.body)", True),
    "listbox": ("pl.html('div', { role: 'listbox', tabindex: '0' }, document.body)", True),
    "in a menu": ("pl.html('span', {}, pl.html('div', { role: 'menu' }, document.body))", True),
    "widget's slider": ("pl.html('div', { role: 'slider', tabindex: '0' }, document.body)", True),
    "editable": ("pl.html('div', { contenteditable: 'true' }, document.body)", True),
    "in an editable": (
        "pl.html('b', {}, pl.html('div', { contenteditable: 'true' }, document.body))", True),
}
PRESS = """([make, modifier, taken]) => {
  document.body.replaceChildren();
  const target = eval(make);
  let keeps, page;
  if (taken) target.addEventListener("keydown", (event) => event.preventDefault());
  window.addEventListener("keydown", (event) => {
    keeps = pl.fieldKeeps(event.target);
    page = pl.pageKey(event);
  }, { once: true });
  target.dispatchEvent(new KeyboardEvent("keydown", { key: "PageDown", bubbles: true,
                                                      cancelable: true,
                                                      [modifier]: Boolean(modifier) }));
  return [keeps, page];
}"""


@pytest.mark.parametrize("name", TARGETS)
def test_a_field_keeps_its_keys_and_the_page_takes_the_rest(js, name):
    make, keeps = TARGETS[name]
    assert js.evaluate(PRESS, [make, "", False]) == [keeps, not keeps]


@pytest.mark.parametrize(("modifier", "taken", "page"), [
    ("ctrlKey", False, False), ("metaKey", False, False), ("altKey", False, False),
    ("shiftKey", False, True), ("", True, False), ("", False, True)])
def test_a_modified_or_taken_key_is_left_alone_a_shifted_one_is_not(js, modifier, taken, page):
    # (a fresh element: a listener that takes the key stays on it, not on the page's body)
    assert js.evaluate(PRESS, [TARGETS["div"][0], modifier, taken]) == [False, page]


def test_what_is_no_element_keeps_nothing(js):
    assert js.evaluate("() => [pl.fieldKeeps(window), pl.fieldKeeps(document),"
                       " pl.fieldKeeps(null)]") == [False, False, False]
