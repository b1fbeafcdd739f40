"""What reading a lecture plan costs the server, at its worst, beside what a view costs.

A plan file or link is outside input (classroom/plan.py): its size, slides, questions,
options and texts are capped before any work. This measures the CPU of ``plan.parse`` (with
the app's catalogue, as the page reads a file) on the worst plans those caps allow, and of
the answers' checks a student can make the server do (a number, a line), beside the server's
work for one view that a page run does (the data and the run ui/plan_runs.py builds, on
1,000 generated points, its run recorded, no cache) as the budget's unit.

    python -m bench.plan_cost [--repeats 5]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import time

os.environ.setdefault("STREAMLIT_LOG_LEVEL", "error")


def worst_plans() -> dict[str, bytes]:
    from classroom import plan

    points = ";".join(f"{n % 9}.{n % 7},{n % 5}.{n % 3},{'+' if n % 2 else '-'}"
                      for n in range(60))
    view = f"lesson=margin&pts={points}&eta=0.5&order=cyclic&w1=1&w2=2&b=3"
    question = {"kind": "choice", "text": "q" * 500, "options": ["o" * 200] * 6,
                "right": [0, 1, 2]}
    slide = {"title": "<b>t</b>" * 25, "view": view, "notes": "n" * 4000, "steps": [0, 9],
             "questions": [question] * plan.MAX_QUESTIONS}
    out = {}
    full = {plan.FORMAT: 1, "slides": [slide] * plan.MAX_SLIDES}
    text = json.dumps(full)
    while len(text.encode()) > plan.MAX_PLAN_BYTES:  # as many slides as the size cap allows
        full["slides"].pop()
        text = json.dumps(full)
    out[f"{len(full['slides'])} full slides (512 KB)"] = text.encode()
    bad = {**slide, "view": view.replace("eta=0.5", "eta=x&colour=red&class=ABCDEFGH"),
           "questions": [{"kind": "number", "text": "t", "answer": "nope"}] * 8}
    refused = {plan.FORMAT: 1, "slides": [bad] * plan.MAX_SLIDES}
    while len(json.dumps(refused)) > plan.MAX_PLAN_BYTES:
        refused["slides"].pop()
    out[f"{len(refused['slides'])} slides, every field refused"] = json.dumps(refused).encode()
    out["10,000 small slides"] = json.dumps(
        {plan.FORMAT: 1, "slides": [{"view": "eta=1"}] * 10_000}).encode()
    out["10 MB (refused by size)"] = b" " * 10_000_000
    out["the built-in lecture"] = plan.BUILTIN["notes"].read_bytes()
    return out


def best_of(repeats: int, work) -> float:
    times = []
    for _ in range(repeats):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    from classroom import plan
    from classroom.state import check_spec
    from core.perceptron import perceptron
    from core.trace import record
    from lessons import plan_catalogue
    from ui.plan_runs import view_data, view_training

    catalogue = plan_catalogue()
    view = {"data": "separable-generator", "n": "1000"}

    def one_view() -> None:  # the data and the run a page of 1,000 points computes
        data = view_data(view)
        record(perceptron(data.X, data.y, **view_training(view)))

    unit = best_of(args.repeats, one_view)
    print("| input | bytes | CPU (ms) | views' worth |\n| --- | ---: | ---: | ---: |")
    print(f"| one view's data and run (the unit) | | {unit * 1e3:.2f} | 1 |")
    for name, data in worst_plans().items():
        def read(data=data) -> None:
            with contextlib.suppress(plan.PlanError):
                plan.parse(data, catalogue=catalogue)
        cost = best_of(args.repeats, read)
        print(f"| {name} | {len(data):,} | {cost * 1e3:.1f} | {cost / unit:.0f} |")
    line = check_spec("line", {"text": "t", "w": ["0.1", "-0.1"], "b": "-0.2",
                               "box": [-10, 10, -10, 10]})
    number = check_spec("number", {"text": "t", "answer": "7/20", "tolerance": "0.01"})
    from classroom.state import KINDS

    answers = {"a line answer (441 grid points, exact)":
               lambda: KINDS["line"].read(line, [0.123456789, -9.87654321, 9.5, 3.25]),
               "a number answer (the longest allowed)":
               lambda: KINDS["number"].read(number, "-" + "9" * 30 + ".5e-999")}
    for name, work in answers.items():
        def many(work=work) -> None:
            for _ in range(100):
                with contextlib.suppress(Exception):  # a refusal costs what it costs
                    work()
        cost = best_of(args.repeats, many) / 100
        print(f"| {name} | | {cost * 1e3:.3f} | {cost / unit:.2f} |")


if __name__ == "__main__":
    main()
