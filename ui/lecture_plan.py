"""A lecture plan in the page: built from the views of the app, kept, and given from a clicker.

The plan itself (its slides, its file and its link, the notes' built-in lecture) is
``classroom/plan.py``; this module is the lecturer's side of it in the app:

- **Building.** The sidebar's *Lecture* holds the plan in progress: *Add this view to the
  lecture* takes the view a Share link holds (lesson, part, settings, data) at its step, or
  covering steps k to m; a slide is renamed, given notes, moved or removed there. The plan
  downloads as its file and uploads again; the browser keeps the one in progress between
  visits (its localStorage, ``plan.js``); a link ``?plan=...`` opens a plan on its first slide
  (``?plan=notes``: the notes' lecture).
- **Giving.** A slide opens as a link to its view would open (the session's settings dropped,
  the view read as a fresh link, at the slide's step): one run of the page. In a class the
  lecturer's page then publishes its view, as any change of view does (ui/classroom.py), so
  every following page opens the slide. The clicker's keys, the slide bar and a remote
  phone's Next and Previous are ``lecture_plan_assets/plan.js``; a remote (a second device of
  the lecturer's) finds the class's plan in the class's store, on any process (the class's
  ``plan`` action, classroom/ops.py).
- **Preparing.** While a slide shows, the next one is prepared (:func:`prepare`).

Titles and notes are outside text: every one is shown literally (ui/outside.py, or set as
text by the page's script).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import streamlit as st

from classroom import plan as plans
from ui.lecture import lecture_mode
from ui.outside import md

ASSETS = Path(__file__).with_name("lecture_plan_assets")
PLAN = "plan.plan"  # the plan in progress (classroom.plan.Plan)
AT = "plan.at"  # the slide on screen while the lecture is given (its index), else absent
GO = "plan.go"  # the slide asked for: opened as the next run begins
ASKED = "plan.asked"  # the browser was asked once for the plan it keeps
FORGET = "plan.forget"  # the lecturer cleared the plan: the browser forgets it too
PROBLEM = "plan.problem"  # why a plan (a file, a link, the browser's copy) was refused
NOTICE = "plan.notice"  # what became of the last change (a slide added, a plan opened)
WHOLE = "plan.whole"  # a change the whole page must show (a slide opened, the bar gone)
UPLOADING = "plan.uploading"  # the lecturer asked to open a plan file: its uploader shows
UPLOADS = "plan.uploads"  # the uploader's generation: a new one after each file taken
NOTES_LINK = "notes"  # ?plan=notes: the notes' lecture
PREPARE = "prepare"  # ?plan=prepare: a page that opens a slide's view ahead of it (plan.js)
MOUNTED = "plan.mounted"  # this run drew the bar (before the page)
PREPARING = "plan.preparing"  # this session is such a page: it draws the view, nothing more
# a file bigger is refused before it is read (the plan's own limit)
MAX_FILE_BYTES = plans.MAX_PLAN_BYTES

_mount = st.components.v2.component(
    "perceptron_lab.lecture_plan", js=(ASSETS / "plan.js").read_text(),
    css=(ASSETS / "plan.css").read_text(), isolate_styles=False)


# ---------------------------------------------------------------- the plan's API, in one place


# lessons.plan_catalogue (app.py hands it over: ui/ imports no lesson): what each lesson's
# views may hold, against which every plan is read
_CATALOGUE: list[Callable[[], object]] = []
_CATALOGUE_MADE: list[object] = []


def _catalogue():
    if not _CATALOGUE_MADE and _CATALOGUE:
        _CATALOGUE_MADE.append(_CATALOGUE[0]())
    return _CATALOGUE_MADE[0] if _CATALOGUE_MADE else None


def _parse(text: str | bytes):
    """The plan a file's bytes hold, and its notices as sentences (PlanError: none)."""
    plan, notices = plans.parse(text, catalogue=_catalogue())
    return plan, [str(n) for n in notices]


def _dump(plan) -> str:
    return plans.dump(plan)


def _from_link(value: str):
    plan, notices = plans.from_link(value, catalogue=_catalogue())
    return plan, [str(n) for n in notices]


def _to_link(plan) -> str | None:
    """The plan's ``?plan=`` value, or None when it is too long for a link (then a file)."""
    try:
        return plans.to_link(plan)
    except ValueError:
        return None


def _notes():
    return _from_link(NOTES_LINK)


def _slides(plan) -> tuple:
    return tuple(plan.slides)


def _with_slides(plan, slides) -> object:
    return replace(plan, slides=tuple(slides))


def _new_slide(view: str, step: int, steps: tuple[int, int] | None, title: str):
    return plans.Slide(view=view, title=title, step=step, steps=steps)


def _message(refused: Exception) -> str:
    return str(refused)


def _notices(notices: list[str], where: str) -> None:
    """What of a plan was not used as written, said in the sidebar's Lecture (and the page's
    toast): outside text, as written."""
    if notices:
        shown = "; ".join(notices[:5]) + (f"; and {len(notices) - 5} more" if len(notices) > 5
                                           else "")
        st.session_state[PROBLEM] = f"{where}: {shown}."


# ---------------------------------------------------------------- a remote finds the plan

# the class's plan as this session last gave it to the class or took it from the class: (code,
# plan file, slide on screen); a device gives it again only when it changed
SHARED = "plan.shared"


def _class_code() -> str | None:
    if st.session_state.get("class.role") == "lecturer" and st.session_state.get("class.code"):
        return st.session_state["class.code"]
    return None


def _class_act(**fields) -> dict | None:
    """The class's ``plan`` action (classroom/ops.py) from this page; None when the class
    cannot be asked now (its store away, the class gone): a later run asks again."""
    from classroom.state import ClassError
    from ui.classroom.store import Unavailable, _act

    try:
        return _act("plan", **fields)[1]
    except (Unavailable, ClassError):
        return None


def _share_with_class() -> None:
    """A lecturer's page giving a plan in a class keeps it in the class's store, with the
    slide on screen, for the lecturer's other devices on any process (a phone as a remote)."""
    code, plan = _class_code(), st.session_state.get(PLAN)
    if not code or plan is None or AT not in st.session_state:
        return
    shared = (code, plans.dump(plan), st.session_state[AT])
    if st.session_state.get(SHARED) != shared and _class_act(plan=shared[1],
                                                              at=shared[2]) is not None:
        st.session_state[SHARED] = shared


def _from_class() -> bool:
    """A lecturer's device in a class given from a plan takes its plan and slide (a remote);
    whether the class has one."""
    code = _class_code()
    kept = _class_act() if code else None
    if not kept or not kept.get("plan"):  # none, or "" once its lecturer stopped giving it
        return False
    text, at = kept["plan"], kept["at"]
    if st.session_state.get(SHARED, (None, None))[:2] != (code, text):
        try:
            plan, _ = plans.parse(text, catalogue=_catalogue())
        except plans.PlanError:
            return False
        st.session_state[PLAN] = plan
        st.session_state["plan.remote"] = True  # the lecturer's second device: Next, Previous
    st.session_state[SHARED] = (code, text, at)
    st.session_state[AT] = at
    return True


# ---------------------------------------------------------------- before every page


def begin(pages: Sequence, page, parameters: Callable[[], frozenset[str]],
          catalogue: Callable[[], object]) -> None:
    """Before the page (app.py): a link's plan is opened on its first slide; a slide asked for
    (a key, Next, a remote's) is opened: the session takes its view as a fresh link, at its
    step (switching lesson if need be). ``catalogue``: lessons.plan_catalogue."""
    if not _CATALOGUE:
        _CATALOGUE.append(catalogue)
    value = st.query_params.get("plan")
    if value == PREPARE:  # the projector's page preparing the next slide (prepare_link)
        st.query_params.pop("plan", None)
        st.session_state[PREPARING] = True
    elif value is not None:
        st.query_params.pop("plan", None)  # a plan is opened once, never kept in the address
        try:
            plan, notices = _from_link(value)
        except plans.PlanError as refused:
            st.session_state[PROBLEM] = (f"The link's plan was not opened: {_message(refused)}."
                                         " The plan in progress stays.")
        else:
            _stop()
            st.session_state.update({PLAN: plan, GO: 0, ASKED: True})
            _notices(notices, "The link's plan opened, but")
    _from_class()
    go = st.session_state.pop(GO, None)
    plan = st.session_state.get(PLAN)
    if go is not None and plan is not None and 0 <= go < len(_slides(plan)):
        _open(plan, go, pages, page, parameters)


def _target(slide, pages: Sequence, parameters) -> tuple[object, dict[str, str]]:
    """The page a slide opens and its link's parameters (its view, its step)."""
    from ui import classroom  # (it imports the page's lessons' world: not at import time)

    view = classroom.owned(classroom.decode_view(slide.view), parameters())
    by_path = {p.url_path: p for p in pages}
    target = by_path.get(view.pop(classroom.LESSON, ""), pages[0])
    params = dict(view)
    if slide.step:
        params["step"] = str(slide.step)
    return target, params


def prepare_link(slide, pages: Sequence, parameters) -> str:
    """The address, relative to the page's own, that opens ``slide`` on a projector ahead of
    time (plan.js opens it in a hidden frame): the server computes its run, which its cache
    keeps for the switch (``st.cache_data``, shared by every session), and the browser
    has its page's files.

    >>> from types import SimpleNamespace as S
    >>> pages = [S(url_path=""), S(url_path="margin")]
    >>> prepare_link(S(view="eta=2&lesson=margin", step=3), pages, lambda: frozenset({"eta"}))
    'margin?eta=2&step=3&lecture=1&plan=prepare'
    """
    from urllib.parse import urlencode

    target, params = _target(slide, pages, parameters)
    query = urlencode({**params, "lecture": "1", "plan": PREPARE}, safe=",;~")
    return f"{target.url_path or '.'}?{query}" if target.url_path else f"./?{query}"


def _open(plan, at: int, pages: Sequence, page, parameters) -> None:
    from ui import classroom

    target, params = _target(_slides(plan)[at], pages, parameters)
    if lecture_mode() or st.query_params.get("lecture") == "1":  # (a link's, not read yet)
        params["lecture"] = "1"
    classroom.reset_session()
    st.session_state[AT] = at
    _share_with_class()
    st.session_state["plan.opened"] = time.monotonic()
    if target.url_path != page.url_path:
        st.switch_page(target, query_params=params)
    st.query_params.from_dict(params)


def _on_go() -> None:
    value = (st.session_state.get("plan.bar") or {}).get("go")
    plan = st.session_state.get(PLAN)
    if isinstance(value, dict) and isinstance(value.get("slide"), int) and plan is not None \
            and 0 <= value["slide"] < len(_slides(plan)):
        st.session_state[GO] = value["slide"]


def bar(pages: Sequence, parameters: Callable[[], frozenset[str]]) -> None:
    """The slide bar and the clicker's keys (plan.js), while a lecture is given: drawn before
    the page (a projector's first run ends at its picture), at the top of the sidebar, where
    it takes no room (the bar itself is fixed at the foot of the screen). With it, the next
    slide's address for the page to prepare (:func:`prepare_link`)."""
    if st.session_state.get(PREPARING):
        return
    st.session_state[MOUNTED] = True
    plan, at = st.session_state.get(PLAN), st.session_state.get(AT)
    if plan is None or at is None:
        if st.session_state.pop("plan.bar_shown", False):
            with st.sidebar:
                _mount(key="plan.bar", data={"at": None}, height=0)
        return
    slides = _slides(plan)
    at = min(at, len(slides) - 1)
    slide = slides[at]
    remote = st.session_state.get("class.role") == "lecturer" and \
        st.session_state.get("plan.remote", False)
    mode = "projector" if lecture_mode() else "remote" if remote else "laptop"
    following = slides[at + 1] if at + 1 < len(slides) else None
    data = {"at": at, "count": len(slides), "title": slide.title, "notes": slide.notes,
            "step": slide.step,
            "steps": list(slide.steps) if slide.steps else None, "mode": mode,
            "run": st.session_state.get("plan.opened", 0),
            # a phone as a remote prepares nothing: the projector does, for the room
            "next": prepare_link(following, pages, parameters)
            if following is not None and mode != "remote" else None}
    st.session_state["plan.bar_shown"] = True
    with st.sidebar:
        _mount(key="plan.bar", data=data, on_go_change=_on_go, height=0)


def after() -> None:
    """After the page (app.py), once the class has had its run: a lecturer's page giving a
    plan in a class keeps it in the class's store for its other devices; a device that
    has just become the lecturer's (a remote's first run, which joined the class after
    :func:`begin`) runs once more to take it, with its bar."""
    mounted = st.session_state.pop(MOUNTED, False)
    _share_with_class()
    if mounted and _class_code() and AT not in st.session_state and _from_class():
        st.rerun()


# ---------------------------------------------------------------- the sidebar's Lecture


def _keep_browser_copy() -> None:
    """The browser's copy of the plan in progress: asked for once a session while the session
    has none; written back whenever the plan changes."""
    plan = st.session_state.get(PLAN)
    if plan is None and not st.session_state.get(ASKED):
        st.session_state[ASKED] = True
        _mount(key="plan.keep", data={"keep": True, "ask": True}, on_kept_change=_on_kept,
               height=0)
        return
    st.session_state[ASKED] = True
    text = _dump(plan) if plan is not None else None
    _mount(key="plan.keep", data={"keep": True, "text": text,
                                  "forget": bool(st.session_state.pop(FORGET, False))},
           on_kept_change=_on_kept, height=0)


def _on_kept() -> None:
    value = (st.session_state.get("plan.keep") or {}).get("kept")
    if st.session_state.get(PLAN) is not None or not isinstance(value, dict):
        return
    text = value.get("text")
    if not isinstance(text, str) or len(text.encode()) > MAX_FILE_BYTES:
        return
    try:
        st.session_state[PLAN] = _parse(text)[0]
    except plans.PlanError as refused:
        st.session_state[PROBLEM] = ("The plan this browser kept could not be read, and was "
                                     f"left aside: {_message(refused)}")
    else:
        st.session_state[NOTICE] = "The plan in progress in this browser is back."


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


def _stop() -> None:
    st.session_state[WHOLE] = True
    st.session_state.pop(AT, None)
    if _class_code() and st.session_state.pop(SHARED, None) is not None:
        _class_act(plan="", at=0)  # the class is given from no plan now: its devices stop


def _clear() -> None:
    st.session_state[WHOLE] = True
    _stop()
    st.session_state.pop(PLAN, None)
    st.session_state[FORGET] = True


def _upload() -> None:
    generation = st.session_state.get(UPLOADS, 0)
    file = st.session_state.get(f"plan.upload.{generation}")
    if file is None:
        return
    st.session_state[UPLOADS] = generation + 1  # a fresh uploader: the file is taken
    name = file.name[:80]  # outside text: the message is shown through md() (_panel)
    if file.size > MAX_FILE_BYTES:
        st.session_state[PROBLEM] = (f"The file {name} was not opened: it is {file.size:,} "
                                     f"bytes, and a plan file is at most {MAX_FILE_BYTES:,}. "
                                     "The plan in progress stays.")
        return
    try:
        plan, notices = _parse(file.getvalue())
    except plans.PlanError as refused:
        st.session_state[PROBLEM] = (f"The file {name} was not opened: {_message(refused)}. "
                                     "The plan in progress stays.")
        return
    _stop()
    st.session_state[PLAN] = plan
    st.session_state["plan.pick"] = 0
    st.session_state[WHOLE] = True
    st.session_state[UPLOADING] = False
    st.session_state[NOTICE] = f"The plan from {name} is open: {len(_slides(plan))} slides."
    _notices(notices, f"The plan from {name} opened, but")


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
        text = _dump(plan)  # made once here; sent only when the button is pressed
        st.download_button("Download the plan", lambda: text, file_name="lecture-plan.json",
                           mime="application/json", key="plan.download", on_click="ignore",
                           icon=":material/download:")
        with st.popover("Share the plan as a link", icon=":material/link:"):
            value = _to_link(plan)
            if value is None:
                st.warning("This plan is too long for a link: share its file.",
                           icon=":material/link_off:")
            else:
                st.code(f"{_app_root()}?plan={value}", language=None, wrap_lines=True)
    # the uploader only when asked for: the sidebar's data uploader stays the one on the page
    if st.session_state.get(UPLOADING):
        st.file_uploader("Open a plan file", type=["json"],
                         key=f"plan.upload.{st.session_state.get(UPLOADS, 0)}",
                         on_change=_upload)
    else:
        st.button("Open a plan file", key="plan.open_file", icon=":material/upload_file:",
                  on_click=lambda: st.session_state.update({UPLOADING: True}))
    if slides:
        st.button("Clear the plan", key="plan.clear", on_click=_clear,
                  icon=":material/delete_sweep:")
    st.button("Open the notes' lecture", key="plan.notes", on_click=_open_notes,
              icon=":material/school:")


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


def _app_root() -> str:
    """The app's address as the room opens it (ui/room_link.py), for a plan's link."""
    from ui.room_link import hall_root

    return hall_root().url


def prepare() -> None:  # filled by the preparing step
    """The next slide, prepared while this one shows."""
