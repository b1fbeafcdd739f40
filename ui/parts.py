"""A lesson's parts: each a function with its name, drawn one after the other or picked by
the reader (ui.lesson's :class:`~ui.lesson.Lesson` draws them)."""

from __future__ import annotations

from collections.abc import Callable

from ui.settings import LINKED, Setting

PART = "part"  # the link's parameter of the part picked (Parts.settings)


class Parts:
    """A lesson's parts, by name, in the order they are drawn (or offered).

    A part is a function that draws one piece of a lesson, called as
    ``part(lesson, *args)`` with what its page computed for every part. The
    line ``@PARTS.part("name")`` above the function is its one entry: adding a
    part to a lesson is that function and that line. The page draws the parts
    with :meth:`Lesson.draw_parts`.

    Parameters
    ----------
    pick : bool, default False
        False: every part is drawn, one after the other, in the order of their
        entries. True: one part at a time, the one the reader picks in a row
        of buttons under the title, named in the link as ``?part=<name>``
        (the first part without it).
    lead : str, optional
        The part that holds the lesson's picture: in lecture mode it is drawn
        first, so that it has a projector's first screen (the others follow
        in their order).
    pick_aside : bool, default False
        With ``pick``, in lecture mode the picker is a drop-down on the title's row
        (:meth:`Lesson.heading`) rather than a row of buttons under the title: for a
        lesson whose picture is a chart as tall as a projector leaves under its
        title's row. (In the sidebar, which a projector keeps closed, the room saw the
        page name parts it could not see.)
    """

    def __init__(self, *, pick: bool = False, lead: str | None = None,
                 pick_aside: bool = False):
        self.pick = pick
        self.lead = lead
        self.pick_aside = pick_aside
        self._parts: dict[str, tuple[str, Callable[..., None]]] = {}
        if pick:  # the picker's parameter is the app's from the lesson's import on, not from
            LINKED.add(PART)  # its page's first run (lessons.link_parameters: a class's view)

    def part(self, name: str, label: str | None = None) -> Callable:
        """The entry of a part: a decorator that adds the function under ``name``.

        ``label`` is its button's text in the picker (the name itself by default).
        """
        def add(function: Callable[..., None]) -> Callable[..., None]:
            if name in self._parts:
                raise ValueError(f"a part named {name!r} is there already")
            self._parts[name] = (name if label is None else label, function)
            return function
        return add

    @property
    def names(self) -> tuple[str, ...]:
        """The parts' names, in order."""
        return tuple(self._parts)

    def __getitem__(self, name: str) -> Callable[..., None]:
        return self._parts[name][1]

    def settings(self, page: str) -> tuple[Setting, ...]:
        """The parts' own setting on ``page``: the picker, when the reader picks a part (session
        key "<page>.part", linked as ``part``, its values the parts' names); none otherwise."""
        if not self.pick:
            return ()
        labels = {name: label for name, (label, _) in self._parts.items()}
        return (Setting(f"{page}.part", PART, "choice", self.names[0], "Part",
                        widget="segmented", options=self.names, labels=labels),)
