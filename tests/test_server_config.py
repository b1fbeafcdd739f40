"""The settings a public course server needs are in the app's own config, not only in deploy/."""

from __future__ import annotations

import re

from tests.apptest import ROOT

CONFIG_FILE = ROOT / ".streamlit" / "config.toml"
NGINX = (ROOT / "deploy" / "nginx.conf").read_text()


def setting(name: str):
    """A setting as the app's config file gives it."""
    import tomllib  # Python 3.11+, which the app runs on (ruff targets 3.10)

    section, key = name.split(".")
    return tomllib.loads(CONFIG_FILE.read_text())[section][key]


def test_students_never_see_a_traceback():
    assert setting("client.showErrorDetails") == "none"


def test_nothing_watches_the_source_tree():
    assert setting("server.fileWatcherType") == "none"


def test_uploads_are_capped_where_the_proxy_caps_them():
    mb = setting("server.maxUploadSize")
    proxy = int(re.search(r"client_max_body_size (\d+)m;", NGINX).group(1))
    assert mb < proxy <= mb + 2


def test_nginx_limits_each_client_and_forbids_framing():
    for directive in ("limit_conn_zone", "limit_req_zone", "limit_conn ", "limit_req ",
                      "client_body_timeout", "client_header_timeout", "server_tokens off"):
        assert directive in NGINX, directive
    policy = re.search(r'Content-Security-Policy "([^"]*)"', NGINX).group(1)
    assert "frame-ancestors 'self'" in policy and "default-src 'self'" in policy
    assert "evil" not in policy and "*" not in policy
    # nothing comes from another host (the page icon ships with the app): only keywords,
    # 'self', data: and blob: are sources
    sources = {word for directive in policy.split(";") for word in directive.split()[1:]}
    assert sources <= {"'self'", "'none'", "'unsafe-inline'", "'unsafe-eval'", "data:",
                       "blob:"}, sources
    assert 'X-Frame-Options "SAMEORIGIN"' in NGINX
    assert 'X-Content-Type-Options "nosniff"' in NGINX
    assert 'Referrer-Policy "no-referrer"' in NGINX


def test_the_run_script_gives_redis_a_password_and_every_process_one_class_secret():
    script = (ROOT / "deploy" / "run.sh").read_text()
    code = "\n".join(line for line in script.splitlines() if not line.lstrip().startswith("#"))
    # nginx reads an environment variable named NGINX at start: the script's is NGINX_BIN
    assert not re.search(r"\bNGINX\b(?!_)", code)
    assert '"$NGINX_BIN") -e stderr' in code
    # the password is in redis-server's config file (mode 600 by umask), not on its command
    # line, and reaches the processes in their environment
    assert "requirepass %s" in code and "umask 077" in code
    assert '"$REDIS_SERVER" "$RUN_DIR/redis.conf"' in code
    assert "--requirepass" not in code
    assert 'export PERCEPTRON_LAB_REDIS_PASSWORD="$REDIS_PASSWORD"' in code
    assert "export PERCEPTRON_LAB_SECRET" in code


def test_nginx_counts_only_what_a_client_cannot_choose():
    # every limit is keyed on the connecting address (after a trusted proxy's, run.sh's
    # TRUSTED_PROXY), never on a cookie or a header the client writes, and no address is
    # left out of the counting
    keys = re.findall(r"limit_(?:conn|req)_zone\s+(\S+)", NGINX)
    assert keys and set(keys) == {"$binary_remote_addr"}, keys
    assert "geo " not in NGINX
    # the address the app counts is the one nginx counted: a client's own X-Forwarded-For
    # is replaced, not appended to
    assert "$proxy_add_x_forwarded_for" not in NGINX
    assert NGINX.count("proxy_set_header X-Forwarded-For $remote_addr;") == 2


def test_the_deployment_raises_open_files_where_it_starts_processes():
    script = (ROOT / "deploy" / "run.sh").read_text()
    assert "worker_rlimit_nofile @FILES@;" in NGINX and "worker_connections @CONNECTIONS@;" in NGINX
    assert "minfds = $OPEN_FILES" in script and '-e "s|@FILES@|$OPEN_FILES|"' in script
    for unit in ("perceptron-lab@.service", "perceptron-lab-redis.service"):
        assert "\nLimitNOFILE=65536\n" in (ROOT / "deploy" / "systemd" / unit).read_text()
    # Redis is bounded, and evicts nothing a live class holds
    assert "maxmemory %s" in script and "maxmemory-policy noeviction" in script
