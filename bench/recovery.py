"""How long a class takes to recover from each fault of the deployment deploy/ ships.

Run from the repository root::

    python -m bench.recovery                 # every fault, once
    python -m bench.recovery --repeat 3      # each fault three times, median and worst

deploy/run.sh (nginx, two Streamlit processes, redis-server, all under supervisord) is started
by testkit/deployment.py on free loopback ports. For each fault a fresh class: a lecturer's
page in Chromium stuck to the first process starts it, a student's page stuck to the second
follows it to step 2. Then:

- process killed (the lecturer's, then the student's): SIGKILL. "pages back" is from the kill
  until that page's Streamlit socket has reconnected (through nginx, to the other process) and
  its class stream is open; "class goes on" until the student shows the lecturer's next press,
  pressed as soon as the lecturer's page is back; "process back" until supervisord's new
  process answers its health check.
- redis-server restarted, keeping its data (the append-only file) or losing it: stopped and
  started at once. "class goes on" is from Redis answering again until the student shows a
  press of the lecturer (pressed then, and again every 5 s while the student does not follow).
- redis-server down 30 s: the same from Redis's return; also what each page's class strip says
  5 s into the outage, and how many requests the lecturer's tab sent to /class/ meanwhile.

"no" where the class did not go on within 60 s. All traffic goes to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import time

from bench._server import load_average, machine
from testkit.chromium import CHROMIUM_ARGS, system_chromium
from testkit.class_journey import (
    lecturer_and_student,
    press,
    reconnected,
    sockets,
    strip,
)
from testkit.deployment import deployed
from testkit.stepper import status, wait_status

GIVE_UP = 60.0


def step(page) -> int:
    return int(status(page).split()[1])


def goes_on(lecturer, student, since: float) -> float | None:
    """Press → on the lecturer's page until the student's page shows that step (again every
    5 s while it does not); seconds from ``since``, or None after GIVE_UP s."""
    while time.monotonic() - since < GIVE_UP:
        press(lecturer, "ArrowRight")
        wanted = step(lecturer)
        with contextlib.suppress(Exception):
            student.wait_for_function(
                "(k) => (document.querySelector('.pl-status')?.textContent ?? '')"
                ".startsWith(`Step ${k} /`)", arg=wanted, timeout=5000)
            return time.monotonic() - since
    return None


def one(browser, deployment, fault: str) -> dict:
    """One class through one fault: its timings (s) and what the pages said."""
    errors: list[str] = []
    contexts, lecturer, student, _code = lecturer_and_student(browser, deployment, errors)
    found: dict = {}
    sent: list[tuple[float, str]] = []
    lecturer.on("request", lambda request: "/class/" in request.url
                and sent.append((time.monotonic(), request.method)))
    try:
        press(lecturer, "ArrowRight", 2)
        wait_status(lecturer, "Step 2 /")
        wait_status(student, "Step 2 /")
        if fault.startswith("kill"):
            program = deployment.streamlits[0 if fault == "kill lecturer's" else 1]
            page = lecturer if program == deployment.streamlits[0] else student
            before = sockets(page)
            deployment.kill(program)
            killed = time.monotonic()
            reconnected(page, before, GIVE_UP * 1000)
            found["pages back"] = time.monotonic() - killed
            found["class goes on"] = goes_on(lecturer, student, killed)
            found["process back"] = deployment.wait_back(program, timeout=GIVE_UP)
        else:
            lose = fault == "redis restarted, data lost"
            if fault == "redis down 30 s":
                outage = deployment.hold_redis_down(30)
                down = time.monotonic()
                lecturer.wait_for_timeout(5000)
                found["lecturer says at 5 s"] = strip(lecturer)[:70]
                found["student says at 5 s"] = strip(student)[:70]
                press(lecturer, "ArrowRight")  # a press while Redis is down
                outage.join()
                found["requests while down"] = sum(1 for at, _ in sent if at >= down)
            else:
                deployment.restart_redis(lose_data=lose)
            back = time.monotonic()
            found["class goes on"] = goes_on(lecturer, student, back)
            found["student says after"] = strip(student)[:70]
        found["tracebacks"] = len(deployment.tracebacks())
        found["page errors"] = len(errors)
    finally:
        for context in contexts:
            context.close()
        for program in deployment.streamlits:  # the next fault starts from a whole deployment
            if deployment.info(program)["statename"] != "RUNNING":
                deployment.wait_back(program, timeout=GIVE_UP)
        if not deployment.redis_alive():
            deployment.start_redis()
    return found


FAULTS = ("kill lecturer's", "kill student's", "redis restarted, data kept",
          "redis restarted, data lost", "redis down 30 s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--fault", choices=FAULTS, action="append",
                        help="only this fault (may be given more than once)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    print(machine())
    with sync_playwright() as playwright, deployed(2, name="bench-recovery") as deployment:
        browser = playwright.chromium.launch(executable_path=system_chromium(),
                                             args=CHROMIUM_ARGS)
        for fault in args.fault or FAULTS:
            runs = [one(browser, deployment, fault) for _ in range(args.repeat)]
            print(f"{fault} (load {load_average():.1f}):")
            for key in runs[0]:
                values = [run[key] for run in runs]
                if all(isinstance(v, float) for v in values):
                    print(f"  {key}: median {statistics.median(values):.1f} s, "
                          f"worst {max(values):.1f} s")
                else:
                    print(f"  {key}: {values}")
        browser.close()


if __name__ == "__main__":
    main()
