"""The classroom inside the app's server: found by `streamlit run`, no Redis unless asked."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from streamlit.web.server.app_discovery import discover_asgi_app

from tests.apptest import ROOT


def python(code: str, **env: str) -> str:
    environment = {k: v for k, v in os.environ.items() if k != "PERCEPTRON_LAB_REDIS"}
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, timeout=120, env={**environment, **env})
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_streamlit_run_finds_the_app_with_the_class_routes():
    found = discover_asgi_app(ROOT / "app.py")
    assert found.is_asgi_app and found.import_string == "app:app"
    source = (ROOT / "app.py").read_text()
    # the class's routes and the follower page's, beside Streamlit's
    assert "routes=[*routes(), *follower_routes()]" in source and "lifespan=lifespan" in source


def test_without_the_setting_classes_live_in_the_process_and_redis_is_not_imported():
    out = python("import sys; from classroom.server import routes, store_from_env; "
                 "routes(); print(type(store_from_env()).__name__, 'redis' in sys.modules)")
    assert out == "MemoryStore False"


def test_with_the_setting_classes_live_in_redis():
    out = python("from classroom.server import store_from_env; "
                 "print(type(store_from_env()).__name__)",
                 PERCEPTRON_LAB_REDIS="redis://127.0.0.1:1/0")  # not connected until started
    assert out == "RedisStore"


def test_a_page_script_reaches_the_store_from_its_own_thread():
    out = python(
        "import threading\n"
        "from classroom import server\n"
        "from classroom.state import start\n"
        "result = []\n"
        "def page():\n"
        "    state = start('ABCDEFGH', 'h', 's', 'data=xor', 0)\n"
        "    server.call(lambda store: store.create(state))\n"
        "    result.append(server.call(lambda store: store.get('ABCDEFGH')).view)\n"
        "thread = threading.Thread(target=page)\n"
        "thread.start(); thread.join(10)\n"
        "print(result)\n")
    assert out == "['data=xor']"


def test_the_class_secret_comes_from_the_environment_and_is_long_enough(monkeypatch):
    from classroom import codes, server
    from classroom.ops import Operations
    from classroom.store import MemoryStore

    monkeypatch.delenv(server.SECRET_ENV, raising=False)
    assert server.secret_from_env() is None  # one process: a secret of its own
    monkeypatch.setenv(server.SECRET_ENV, "short")
    with pytest.raises(ValueError, match="at least 32"):
        server.secret_from_env()
    monkeypatch.setenv(server.SECRET_ENV, "x" * 64)
    one, two = (Operations(MemoryStore(), secret=server.secret_from_env()) for _ in range(2))
    token = one.new_voter("10.0.0.1")
    assert two.voter_ok(token)  # another process with the same secret takes it
    assert not Operations(MemoryStore()).voter_ok(token)
    assert not codes.voter_ok(token, b"y" * 64)
