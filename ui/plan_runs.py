"""A slide's run, from its view alone: what a plan's questions are computed on.

A lecture plan's number and line questions name quantities (classroom/plan.py) that the page
holding the slide's run computes (core/quantities.py) and sends with the question. The run is
the one the view's lesson draws, built here from the view's query string by the functions the
pages use (each Setting's parse and default, the data picker's data sets, the cached runs),
without a session, so that the projector's page, a test and a benchmark get the same numbers:

- a lesson with the shared sidebar: the perceptron run of its data and training settings
  (``ui.cached_runs.perceptron_trace``, as ``ui.training.training_settings`` builds them);
- Variants' ``part=kernel``: the kernel perceptron of the view's kernel on its data (the dual
  form always starts from 0);
- Non-separable: the run its page steps through (``lessons.nonseparable.parts.what_to_show``:
  from the start, or one period of the cycle with ``watch=cycle``);
- Perceptron vs SVM's ``Train side by side``: the perceptron's run, as long as the SVM's
  beside it (its last weights held);
- Variants' averaged part (its first): the run on the training rows of the view's split,
  through every epoch (``all_epochs_trace``), as that part draws it;
- Boolean: the truth table of ``fn`` in ``enc`` with the view's hand-made weights (``w1``,
  ``w2``, ``b``; the function's own where the view has none): weights, no run. Variants'
  ``part=classes`` (three classes) has no run a question can name.

:func:`run_facts` raises ValueError with a message naming the parameter for a view that
cannot be built (the page says it beside the question, and asks nothing).
"""

from __future__ import annotations

from urllib.parse import parse_qsl

import numpy as np

from core.boolean import hand_weights, truth_table
from core.quantities import RunFacts
from core.trace import STEP_LIMIT, align
from datasets import Dataset
from datasets.builtin import BUILTIN, GENERATORS
from ui.settings import DATA_CHOICE_DEFAULT, DATA_N, DATA_SEED, DATA_SHAPES, TRAINING, TYPED_WEIGHTS

FIRST_LESSON = "step_through"


def _parsed(setting, params: dict[str, str]):
    if setting.param in params:
        try:
            return setting.parse(params[setting.param])
        except (ValueError, OverflowError) as error:
            raise ValueError(f"{setting.param}={params[setting.param][:20]!r}: {error}") from None
    return setting.default


def view_data(params: dict[str, str]) -> Dataset:
    """The data set a view names (``pts``/``cls``, a ``data`` slug with a generator's
    parameters), or the data picker's default."""
    from ui.data_picker import _builtin, _generated
    from ui.url_state import DATA_SLUGS, decode_points

    if "pts" in params:
        return decode_points(params["pts"], params.get("cls"))
    name = DATA_CHOICE_DEFAULT
    if "data" in params:
        if params["data"] not in DATA_SLUGS:
            raise ValueError(f"data={params['data'][:30]!r}: unknown data set")
        name = DATA_SLUGS[params["data"]]
    if name in GENERATORS:
        shape = DATA_SHAPES[GENERATORS[name].shape_name]
        return _generated(name, int(_parsed(DATA_N, params)), float(_parsed(shape, params)),
                          int(_parsed(DATA_SEED, params)))
    if name not in BUILTIN:
        raise ValueError(f"data={params['data'][:30]!r}: not a data set a link can name")
    return _builtin(name)


def view_training(params: dict[str, str]) -> dict:
    """The run's keyword arguments for ``perceptron``, as the sidebar's training settings
    build them (ui.training.training_settings)."""
    run, typed = {}, []
    for setting in TRAINING:
        value = _parsed(setting, params)
        if setting in TYPED_WEIGHTS:
            typed.append(value)
        else:
            run[setting.arg] = value
    if run["init"] == "typed":
        w1, w2, b = typed
        run["init"] = ((w1, w2), b if run["bias"] else 0.0)
    return run


def run_facts(view: str) -> RunFacts:
    """The run of a slide's view (its query string, as a plan holds it)."""
    from ui.cached_runs import perceptron_trace

    params = dict(parse_qsl(view.lstrip("?"), keep_blank_values=True))
    lesson = params.get("lesson", FIRST_LESSON)
    if lesson == "boolean":
        from lessons.boolean.parts import ENCODING, FUNCTION

        function, encoding = _parsed(FUNCTION, params), _parsed(ENCODING, params)
        table = truth_table(function, encoding=encoding)
        hand = hand_weights(function, encoding=encoding)
        w1 = float(params["w1"]) if "w1" in params else float(hand.w[0])
        w2 = float(params["w2"]) if "w2" in params else float(hand.w[1])
        b = float(params["b"]) if "b" in params else float(hand.b)
        return RunFacts(np.asarray(table.X, dtype=float), np.asarray(table.y, dtype=float),
                        weights=((w1, w2), b))
    data = view_data(params)
    settings = view_training(params)
    if lesson == "nonseparable":
        from lessons.nonseparable.parts import WATCH, what_to_show

        shown = what_to_show(data.X, data.y, settings, watch=_parsed(WATCH, params))
        return RunFacts(data.X, data.y, shown.trace, eta=settings["eta"],
                        bias=settings["bias"])
    if lesson == "variants" and params.get("part", "averaged") == "averaged":
        from core.variants import train_test_split
        from lessons.variants.parts import SPLIT_SEED, TEST_SHARE, all_epochs_trace

        train, _ = train_test_split(len(data), float(_parsed(TEST_SHARE, params)),
                                    int(_parsed(SPLIT_SEED, params)))
        X, y = data.X[train], data.y[train]
        return RunFacts(X, y, all_epochs_trace(X, y, settings), eta=settings["eta"],
                        bias=settings["bias"])
    if lesson == "variants" and params.get("part") == "classes":
        raise ValueError("part=classes: three classes, no run a question can name")
    if lesson == "variants" and params.get("part") == "kernel":
        from lessons.variants.parts import DEGREE, KERNEL, OFFSET, WIDTH, kernel_trace

        name = _parsed(KERNEL, params)
        kernel = {"name": name}
        if name == "polynomial":
            kernel.update(degree=_parsed(DEGREE, params), offset=_parsed(OFFSET, params))
        elif name == "rbf":
            kernel["width"] = _parsed(WIDTH, params)
        run = {key: settings[key] for key in ("eta", "order", "bias", "max_epochs", "seed")}
        trace = kernel_trace(data.X, data.y, kernel, run)
        return RunFacts(data.X, data.y, trace, eta=settings["eta"], bias=settings["bias"],
                        kernel=True)
    trace = perceptron_trace(data.X, data.y, settings)
    if lesson == "svm" and params.get("part") == "Train side by side":
        # stepped beside the SVM's descent, the perceptron's run is as long as the longer
        # (core.trace.align): its last weights held while the SVM goes on
        from lessons.svm.parts import EPOCHS, ETA0, LAM, svm_trace

        svm = svm_trace(data.X, data.y, dict(
            lam=float(_parsed(LAM, params)), eta=float(_parsed(ETA0, params)),
            max_epochs=min(int(_parsed(EPOCHS, params)), max(1, STEP_LIMIT // len(data))),
            order=settings["order"], bias=settings["bias"], seed=settings["seed"]))
        trace = align(trace, svm)[0]
    return RunFacts(data.X, data.y, trace, eta=settings["eta"], bias=settings["bias"])


def ask_body(n: int, slide, question, *, box=None, facts: RunFacts | None = None) -> dict:
    """The lecturer's ``ask`` for a plan's question on its slide (``n``, 1-based): the step it
    asks about, its kind, and its spec with the right answer computed from the slide's run
    (classroom.plan.Question.spec). ``box``: the plane a line is drawn on, as the students'
    pages draw it, [x_min, x_max, y_min, y_max] (default: the square ``viz.plane.view_box`` of
    the data). ``facts``: the slide's run, if the page has it already.

    ValueError (a sentence naming the slide and question) for a question its run cannot
    answer: a step past the run's end, a boundary of w = 0, a quantity with no value.
    """
    from classroom.state import ClassError
    from core import quantities
    from viz.plane import view_box

    where = f"slide {n}, question {slide.questions.index(question) + 1}"
    try:
        facts = facts if facts is not None else run_facts(slide.view)
        k = question.at(slide.step)
        value = None
        if question.kind == "number" and question.quantity is not None:
            value = quantities.value(question.quantity, facts, k).answer
        elif question.kind == "line" and question.quantity is not None:
            value = quantities.LINE[question.quantity](facts, k)
        elif question.kind == "mistake" and facts.trace is not None and 1 <= k <= facts.steps:
            value = "mistake" if facts.trace.updated[k] else "no_mistake"
        elif question.kind == "turn" and facts.trace is not None and 1 <= k <= facts.steps:
            value = quantities.turn(facts, k)  # None where no choice is right: unmarked
        if question.kind == "line" and box is None:
            (x0, x1), (y0, y1) = view_box(np.asarray(facts.X, dtype=float))
            box = [x0, x1, y0, y1]
        spec = question.spec(value, box)
    except (ValueError, ClassError) as error:
        raise ValueError(f"{where}: {getattr(error, 'message', error)}") from None
    return {"action": "ask", "kind": question.kind, "step": k, "spec": spec, "slide": n}
