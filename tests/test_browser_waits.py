"""Browser waits stretch on a slow machine instead of failing there."""

from __future__ import annotations

from testkit import browser as conftest


def test_waits_follow_the_slowness_given(monkeypatch):
    monkeypatch.setenv("BROWSER_SLOWNESS", "3")
    assert conftest._slowness() == 3.0
    monkeypatch.setenv("BROWSER_SLOWNESS", "0.5")
    assert conftest._slowness() == 1.0  # never shorter than on an idle machine


def test_waits_follow_the_load_per_core(monkeypatch):
    monkeypatch.delenv("BROWSER_SLOWNESS", raising=False)
    monkeypatch.delenv("PYTEST_XDIST_WORKER_COUNT", raising=False)
    monkeypatch.setattr(conftest.os, "cpu_count", lambda: 2)
    for load, slowness in ((0.3, 1.0), (5.0, 2.5), (40.0, 6.0)):
        monkeypatch.setattr(conftest.os, "getloadavg", lambda load=load: (load, 0.0, 0.0))
        assert conftest._slowness() == slowness


def test_waits_follow_the_runs_own_workers_on_a_quiet_machine(monkeypatch):
    monkeypatch.delenv("BROWSER_SLOWNESS", raising=False)
    monkeypatch.setattr(conftest.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(conftest.os, "getloadavg", lambda: (0.3, 0.0, 0.0))
    for workers, slowness in (("2", 1.0), ("3", 1.5)):
        monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", workers)
        assert conftest._slowness() == slowness
    monkeypatch.setattr(conftest.os, "getloadavg", lambda: (8.0, 0.0, 0.0))
    assert conftest._slowness() == 4.0  # the machine's own load, when more


def test_timeout_ms_scales_by_the_slowness_measured_at_start(monkeypatch):
    monkeypatch.setattr(conftest, "SLOWNESS", 2.5)
    assert conftest.timeout_ms(20_000) == 50_000
