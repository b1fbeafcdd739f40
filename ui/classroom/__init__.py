"""A class in the app: the lecturer leads from any lesson, every student's page follows.

The class itself (its state, its routes, its store) is ``classroom/``; this module is what
the lecturer and the students see, around every lesson (app.py runs each page inside
:func:`class_session`):

- **Start.** The sidebar's *Start a class* opens a class on the current view. Its key
  stays in this session (``class.key``) and in the lecturer's own strip component (which
  keeps it in the tab's sessionStorage, so that a reload of that tab leads the class
  again); the projector shows the code, the link ``/follow?class=CODE`` (the follower page,
  ui/classroom/follower_page.py; ``/?class=CODE`` is the full app's) and its QR code. A
  lecturer's address never holds ``class=``; a phone takes a key of its own through a
  one-time ``?class=CODE&remote=TOKEN`` link.
- **The view.** A view is what a Share link holds, as one query string, with the lesson
  as ``lesson=<url path>`` and without the step (which travels on its own), lecture mode
  (each screen's own) or the class's parameters. After every run of a lecturer's page
  whose view changed, the view is published (``set_view``); a page that follows a class
  and sees a newer ``view_seq`` asks for one run (through a relay component outside the
  strip's fragment) and *applies* it: the session's settings
  are dropped and the view's query string is read as a fresh link would be read (the
  lesson switched to when it is another), at the class's step.
- **Steps.** Presses never rerun: the stepper tells ``pl-step`` (its class layer,
  ui/stepper_assets/layers/class.js), the lecturer's strip posts the step, every
  follower's strip hears it on its event stream and moves its stepper with ``pl-class``
  (ui/classroom_assets/stream.js).
- **Exploring.** A student who presses, or whose view leaves the class's (a setting,
  another lesson), explores alone; *Rejoin* brings the class's view and step back.
- **Questions** are asked, answered, counted and revealed from the strips (ui/classroom_assets/):
  the server counts each browser once.
- **The end.** Ended or expired, a page keeps its last view and says so; a link to a
  class that is over says so and opens nothing else by itself.

Its modules do one job each (docs/ARCHITECTURE.md, "A class"); this package gives the names
the app, the lecture plan, the lessons' page and the tests take from it.
"""

from __future__ import annotations

from ui.classroom.assets import ASSETS, JS_MODULES, SHARED_JS, module_path, script
from ui.classroom.follow import give_ahead
from ui.classroom.join import app_link, join_link, qr_svg
from ui.classroom.page import class_session
from ui.classroom.session import REMOTE_SHOWN_S, reset_session
from ui.classroom.store import _open_class, _remote_token
from ui.classroom.strip import title_slot
from ui.classroom.views import LESSON, decode_view, encode_view, owned, view_of

__all__ = [
    "ASSETS", "JS_MODULES", "LESSON", "REMOTE_SHOWN_S", "SHARED_JS", "_open_class",
    "_remote_token", "app_link", "class_session", "decode_view", "encode_view", "give_ahead",
    "join_link", "module_path", "owned", "qr_svg", "reset_session", "script", "title_slot",
    "view_of",
]
