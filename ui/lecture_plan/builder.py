"""The sidebar's *Lecture*: the plan in progress, built from the page's views. *Add this view
to the lecture* takes the view a Share link holds (lesson, part, settings, data) at its step,
or covering steps k to m; a slide is renamed, given notes, moved or removed; the lecture is
given from its first slide or any other. app.py calls :func:`sidebar` after the page."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import streamlit as st

from classroom import plan as plans
from ui.lecture_plan.files import _download_and_share, _keep_browser_copy, _open_file
from ui.lecture_plan.opening import _stop
from ui.lecture_plan.reading import (
    _dump,
    _message,
    _new_slide,
    _notes,
    _notices,
    _parse,
    _slides,
    _with_slides,
)
from ui.lecture_plan.session import AT, FORGET, GO, NOTICE, PLAN, PREPARING, PROBLEM, WHOLE
from ui.outside import md


def sidebar(page_title: str, url_path: str, parameters: Callable[[], frozenset[str]]) -> None:
    """The sidebar's *Lecture*: the plan in progress, built from the page's views."""
    if st.session_state.get(PREPARING):
        return
    st.session_state["plan.page_title"] = page_title
    st.session_state["plan.page"] = url_path
    plan = st.session_state.get(PLAN)
    with st.expander("Lecture", icon=":material/slideshow:",
                     expanded=plan is not None and AT not in st.session_state):
        _panel(parameters)


@st.fragment
def _panel(parameters) -> None:
    if st.session_state.pop(WHOLE, False) or GO in st.session_state:
        st.rerun()  # the whole page (a fragment's run would not open the slide)
    _keep_browser_copy()
    problem = st.session_state.pop(PROBLEM, None)
    if problem:
        st.warning(md(problem), icon=":material/info:")
    notice = st.session_state.pop(NOTICE, None)
    if notice:
        st.caption(md(notice))
    plan = st.session_state.get(PLAN)
    slides = _slides(plan) if plan is not None else ()
    at = st.session_state.get(AT)
    if slides:
        if at is None:
            st.button(f"Give the lecture ({len(slides)} slides)", key="plan.give",
                      on_click=_give, args=(0,), type="primary", icon=":material/play_arrow:",
                      help="Opens its first slide. PageDown (a clicker's forward) goes on, "
                           "PageUp back.")
        else:
            st.caption(md(f"Giving slide {at + 1} of {len(slides)}."))
            st.button("Stop giving the lecture", key="plan.stop", on_click=_stop,
                      icon=":material/stop:")
    st.text_input("Title of the next slide", key="plan.title_new", max_chars=200,
                  placeholder=st.session_state.get("plan.page_title", ""))
    covers = st.checkbox("It covers steps from … to …", key="plan.covers",
                         help="PageDown steps the run through them before the next slide.")
    if covers:
        step = _current(parameters)[1]
        left, right = st.columns(2)
        left.number_input("From step", key="plan.from", min_value=0, value=step, step=1)
        right.number_input("To step", key="plan.to", min_value=0, value=step + 5, step=1)
    st.button("Add this view to the lecture", key="plan.add", on_click=_add, args=(parameters,),
              icon=":material/add_to_queue:",
              help="This view as a Share link holds it: lesson, part, data, settings, step.")
    if slides:
        _slide_editor(slides)
        _download_and_share(plan)
    _open_file()
    if slides:
        st.button("Clear the plan", key="plan.clear", on_click=_clear,
                  icon=":material/delete_sweep:")
    st.button("Open the notes' lecture", key="plan.notes", on_click=_open_notes,
              icon=":material/school:")


def _slide_editor(slides) -> None:
    """The slide picked: its title and notes, moved up or down, opened, removed."""
    pick = min(st.session_state.get("plan.pick", 0), len(slides) - 1)
    st.session_state["plan.pick"] = pick
    st.selectbox("Slide", range(len(slides)), key="plan.pick",
                 format_func=lambda i: f"{i + 1}. {slides[i].title}")
    slide = slides[pick]
    st.session_state[f"plan.slide_title.{pick}"] = slide.title
    st.session_state[f"plan.slide_notes.{pick}"] = slide.notes
    st.text_input("Title", key=f"plan.slide_title.{pick}", on_change=_rename, args=(pick,),
                  max_chars=200)
    st.text_area("Notes (for you, not the room)", key=f"plan.slide_notes.{pick}",
                 on_change=_rename, args=(pick,), height=80)
    row = st.columns(4)
    row[0].button("Up", key="plan.up", on_click=_move, args=(pick, -1),
                  disabled=pick == 0, icon=":material/arrow_upward:")
    row[1].button("Down", key="plan.down", on_click=_move, args=(pick, 1),
                  disabled=pick == len(slides) - 1, icon=":material/arrow_downward:")
    row[2].button("Open", key="plan.open", on_click=_give, args=(pick,),
                  icon=":material/open_in_browser:")
    row[3].button("Remove", key="plan.remove", on_click=_remove, args=(pick,),
                  icon=":material/delete:")


def _current(parameters) -> tuple[str, int]:
    """The view a Share link holds now (lesson and parameters, as the class keeps views) and
    its step."""
    from ui import classroom

    view = classroom.view_of(st.query_params.to_dict(), st.session_state.get("plan.page", ""),
                             parameters())
    step = st.query_params.get("step", "0")
    return classroom.encode_view(view), int(step) if step.isdigit() and len(step) < 9 else 0


def _add(parameters) -> None:
    view, step = _current(parameters)
    covers = st.session_state.get("plan.covers")
    steps = None
    if covers:
        k = int(st.session_state.get("plan.from", step))
        m = int(st.session_state.get("plan.to", step))
        steps = (min(k, m), max(k, m))
        step = steps[0]
    title = str(st.session_state.get("plan.title_new") or "").strip() or \
        st.session_state.get("plan.page_title", "A view")
    plan = st.session_state.get(PLAN)
    slide = _new_slide(view, step, steps, title)
    try:
        new = _with_slides(plan, (*_slides(plan), slide)) if plan is not None else \
            plans.Plan(slides=(slide,))
        new, notices = _parse(_dump(new))  # what the file would hold: the plan's own checks
    except plans.PlanError as refused:
        st.session_state[PROBLEM] = f"This view was not added: {_message(refused)}"
        return
    st.session_state[PLAN] = new
    st.session_state["plan.pick"] = len(_slides(new)) - 1
    st.session_state["plan.title_new"] = ""
    st.session_state[NOTICE] = f"Slide {len(_slides(new))} added."
    _notices(notices, "Added, but")


def _edit(change: Callable[[list], None]) -> None:
    plan = st.session_state.get(PLAN)
    if plan is None:
        return
    slides = list(_slides(plan))
    change(slides)
    if not slides:
        st.session_state.pop(PLAN, None)
        st.session_state.pop(AT, None)
        st.session_state[FORGET] = True
        return
    st.session_state[PLAN] = _with_slides(plan, slides)
    if st.session_state.get(AT) is not None:
        st.session_state[AT] = min(st.session_state[AT], len(slides) - 1)


def _move(i: int, by: int) -> None:
    def change(slides):
        j = i + by
        if 0 <= i < len(slides) and 0 <= j < len(slides):
            slides[i], slides[j] = slides[j], slides[i]
            st.session_state["plan.pick"] = j
    _edit(change)


def _remove(i: int) -> None:
    def change(slides):
        if 0 <= i < len(slides):
            del slides[i]
            st.session_state["plan.pick"] = max(0, min(i, len(slides) - 1))
    _edit(change)


def _rename(i: int) -> None:
    title = str(st.session_state.get(f"plan.slide_title.{i}", ""))
    notes = str(st.session_state.get(f"plan.slide_notes.{i}", ""))

    def change(slides):
        if 0 <= i < len(slides):
            candidate = replace(slides[i], title=title, notes=notes)
            # the plan's own limits on a title and notes (a title cut to its length...)
            try:
                read = _parse(_dump(_with_slides(st.session_state[PLAN], [candidate])))
            except plans.PlanError as refused:
                st.session_state[PROBLEM] = f"Slide {i + 1} kept its words: {_message(refused)}"
                return
            slides[i] = _slides(read[0])[0]
            _notices([n.removeprefix("slide 1, ") for n in read[1]], f"Slide {i + 1}")
    _edit(change)


def _give(at: int) -> None:
    st.session_state[GO] = at


def _clear() -> None:
    st.session_state[WHOLE] = True
    _stop()
    st.session_state.pop(PLAN, None)
    st.session_state[FORGET] = True


def _open_notes() -> None:
    try:
        plan, notices = _notes()
    except plans.PlanError as refused:
        st.session_state[PROBLEM] = f"The notes' lecture cannot be opened: {_message(refused)}"
        return
    _stop()
    st.session_state[PLAN] = plan
    st.session_state[GO] = 0
    _notices(notices, "The notes' lecture opened, but")
