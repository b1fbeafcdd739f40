"""The systemd units in deploy/systemd/ (they cannot run here): read as systemd reads them,
checked by systemd-analyze where the machine has it, and started as deploy/run.sh starts the
same programs."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pytest

from tests.apptest import ROOT

UNITS = ROOT / "deploy" / "systemd"
RUN = (ROOT / "deploy" / "run.sh").read_text()


def unit(name: str) -> dict[str, dict[str, list[str]]]:
    """A unit file's sections, each key's values in order (a key may be given twice)."""
    sections: dict[str, dict[str, list[str]]] = {}
    section = None
    for raw in (UNITS / name).read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if re.fullmatch(r"\[[A-Za-z]+\]", line):
            section = sections.setdefault(line[1:-1], {})
            continue
        key, equals, value = line.partition("=")
        assert equals and section is not None and re.fullmatch(r"[A-Za-z]+", key), raw
        section.setdefault(key, []).append(value)
    return sections


def test_a_dead_process_or_redis_is_started_again_after_a_pause():
    for name in ("perceptron-lab@.service", "perceptron-lab-redis.service"):
        service = unit(name)["Service"]
        assert service["Restart"] == ["on-failure"], name
        assert 1 <= int(service["RestartSec"][0]) <= 10, name
        assert int(unit(name)["Unit"]["StartLimitBurst"][0]) >= 3, name
        assert unit(name)["Install"]["WantedBy"] == ["multi-user.target"], name


def test_each_streamlit_instance_runs_as_run_sh_runs_it_on_its_own_port():
    units = unit("perceptron-lab@.service")
    command = units["Service"]["ExecStart"][0].split()
    assert command[1:5] == ["-m", "streamlit", "run", "app.py"]
    flags = dict(zip(command[5::2], command[6::2], strict=True))
    assert flags["--server.port"] == "%i"
    for flag in ("--server.headless", "--server.address", "--browser.gatherUsageStats",
                 "--server.fileWatcherType"):
        assert re.search(rf"{flag} {re.escape(flags[flag])}\b", RUN), flag
    # the shared secrets come from a file, never from the unit (which anyone may read)
    assert units["Service"]["EnvironmentFile"] == ["/etc/perceptron-lab/env"]
    assert not re.search(r"SECRET=|PASSWORD=", (UNITS / "perceptron-lab@.service").read_text()
                         .split("[Unit]", 1)[1])
    assert "perceptron-lab-redis.service" in units["Unit"]["After"][0]


def test_redis_keeps_its_data_as_run_sh_configures_it():
    text = (UNITS / "perceptron-lab-redis.service").read_text()
    service = unit("perceptron-lab-redis.service")["Service"]
    assert service["ExecStart"][0].endswith("redis-server /etc/perceptron-lab/redis.conf")
    for line in ("appendonly yes", "appendfsync everysec", 'save ""', "daemonize no"):
        assert f"#   {line}\n" in text, line  # the config the unit's comment gives
        assert line.replace('"', '\\"') in RUN or line in RUN, line  # and run.sh's


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
def test_systemd_analyze_finds_nothing_wrong(tmp_path):
    # an instance of the template; the virtual environment's python is this one
    for name in ("perceptron-lab@.service", "perceptron-lab-redis.service"):
        text = (UNITS / name).read_text().replace("/opt/perceptron-lab/.venv/bin/python",
                                                  sys.executable)
        if not shutil.which("redis-server"):
            text = text.replace("/usr/bin/redis-server", sys.executable)
        (tmp_path / name.replace("@.", "@8501.")).write_text(text)
    result = subprocess.run(["systemd-analyze", "verify",
                             *sorted(str(path) for path in tmp_path.iterdir())],
                            capture_output=True, text=True, timeout=60)
    said = [line for line in (result.stdout + result.stderr).splitlines()
            if "perceptron-lab" in line]
    assert result.returncode == 0 and not said, said
