#!/usr/bin/env bash
# Perceptron Lab for a big course: N Streamlit processes behind nginx.
#
#   bash deploy/run.sh                      # nproc processes, nginx on 127.0.0.1:8080
#   PROCESSES=4 LISTEN=0.0.0.0:80 bash deploy/run.sh
#
# Settings (environment variables):
#   PROCESSES        Streamlit processes (default: the number of CPU cores)
#   LISTEN           where nginx listens (default 127.0.0.1:8080)
#   STREAMLIT_PORTS  their ports, space separated (default 8501, 8502, ...)
#   RUN_DIR          nginx's config, pid, temp files and the compressed static files
#                    (default: a new folder under /tmp)
#   STREAMLIT_OPTS   extra flags for every `streamlit run` (e.g. "--server.baseUrlPath lab")
#   COOKIE_SECRET    server.cookieSecret shared by every process (default: a random one)
#   PERCEPTRON_LAB_SECRET  signs the students' voter identities, shared by every process
#                    (default: a random one, kept in RUN_DIR/class-secret; at least 32
#                    characters: `openssl rand -hex 32`)
#   REDIS_PASSWORD   the password of the redis-server this script starts (default: a
#                    random one, kept in RUN_DIR/redis.conf); for a Redis of your own, put
#                    its password in PERCEPTRON_LAB_REDIS (redis://:PASSWORD@host:port/0)
#                    or in PERCEPTRON_LAB_REDIS_PASSWORD
#   DATA_DIR         where the redis-server this script starts keeps its append-only file
#                    (default: RUN_DIR/redis): point it at a folder that outlives RUN_DIR
#                    to keep classes across a restart of the whole deployment
#   REDIS_PORT       that redis-server's loopback port (default: a free one)
#   ACCESS_LOG       a file for nginx's access log, one line per request with the process
#                    that answered it (default: none)
#   NGINX_BIN        the nginx binary (default: nginx on the PATH, else /usr/sbin/nginx;
#                    not NGINX, a name nginx itself reads at start)
#   PUBLIC_URL       the address students open (e.g. https://lab.example.edu/), shown on the
#                    class's join card (PERCEPTRON_LAB_PUBLIC_URL; default: the server's own)
#   FRAME_ANCESTORS  the course sites that may show the app in a frame (a Moodle or Canvas
#                    page), space separated: "https://moodle.example.edu https://*.example.org"
#                    (default: none; only the app's own pages frame it). They must be https
#                    (a browser frames no http page in an https one), and so must the app
#   PRECOMPRESS      1 (default): nginx serves Streamlit's static files from a
#                    gzipped copy; 0: it proxies them and gzips on the fly
#   OPEN_FILES       the open files every program may hold (default: the machine's hard
#                    limit, `ulimit -Hn`, at most 65536): supervisord raises its own to it
#                    (minfds) and its programs inherit it; each Streamlit process sizes its
#                    class streams from what it got (classroom/limits.py)
#   TRUSTED_PROXY    the address (or CIDR range) of a proxy of your own in front of nginx that
#                    sets X-Forwarded-For (a TLS terminator on this machine: 127.0.0.1); nginx
#                    then counts the address that proxy saw. Without it nginx counts the
#                    connecting address, and replaces any X-Forwarded-For a client sends
#   REDIS_MAXMEMORY  the memory the redis-server this script starts may use (default 256mb;
#                    deploy/README.md, "Limits", says what a class takes)
#
# Runs in the foreground under supervisord (PyPI `supervisor`, in requirements-deploy.txt): each
# Streamlit process, redis-server and nginx is one of its programs, restarted when it dies
# (with a growing wait when it dies again at once), so no part takes the others down;
# `python -m supervisor.supervisorctl -c RUN_DIR/supervisord.conf status` lists them.
# Ctrl+C (or SIGTERM) stops every one of them. Needs nginx (Debian: apt-get install -y
# nginx) and the app's requirements (pip install -r requirements-deploy.txt); with more than one
# process also redis-server (Debian: apt-get install -y redis-server), which keeps the
# classes that every process serves (PERCEPTRON_LAB_REDIS=redis://... to use a Redis of
# your own).
set -euo pipefail
cd "$(dirname "$0")/.."

# the course sites that may frame the app: checked, since they go into nginx's headers; the
# processes hear of them too (a student's voter cookie must then reach a framed page)
read -r -a FRAMERS <<< "${FRAME_ANCESTORS:-}"
for site in "${FRAMERS[@]}"; do
    if [[ ! "$site" =~ ^https?://(\*\.)?[A-Za-z0-9.-]+(:[0-9]{1,5})?$ ]]; then
        echo "FRAME_ANCESTORS: '$site' is not a site like https://moodle.example.edu" >&2
        exit 2
    fi
done
export PERCEPTRON_LAB_FRAME_ANCESTORS="${FRAMERS[*]}"

# the open files every program may hold: the hard limit, at most 65536 (a stream or a page is
# one file in its process, two in nginx)
hard_files="$(ulimit -Hn)"
if [[ "$hard_files" == unlimited ]] || (( hard_files > 65536 )); then hard_files=65536; fi
OPEN_FILES="${OPEN_FILES:-$hard_files}"
if [[ ! "$OPEN_FILES" =~ ^[0-9]+$ ]] || (( OPEN_FILES < 1024 || OPEN_FILES > hard_files )); then
    echo "OPEN_FILES: '$OPEN_FILES' is not a number from 1024 to this machine's $hard_files" >&2
    exit 2
fi
real_ip=""
if [[ -n "${TRUSTED_PROXY:-}" ]]; then
    if [[ ! "$TRUSTED_PROXY" =~ ^[0-9A-Fa-f.:]+(/[0-9]{1,3})?$ ]]; then
        echo "TRUSTED_PROXY: '$TRUSTED_PROXY' is not an address like 127.0.0.1 or 10.0.0.0/8" >&2
        exit 2
    fi
    real_ip="set_real_ip_from $TRUSTED_PROXY; real_ip_header X-Forwarded-For; real_ip_recursive off;"
fi
REDIS_MAXMEMORY="${REDIS_MAXMEMORY:-256mb}"
if [[ ! "$REDIS_MAXMEMORY" =~ ^[0-9]+(kb|mb|gb)$ ]]; then
    echo "REDIS_MAXMEMORY: '$REDIS_MAXMEMORY' is not a size like 256mb" >&2
    exit 2
fi

PROCESSES="${PROCESSES:-$(nproc)}"
LISTEN="${LISTEN:-127.0.0.1:8080}"
PRECOMPRESS="${PRECOMPRESS:-1}"
RUN_DIR="${RUN_DIR:-$(mktemp -d /tmp/perceptron-lab-run.XXXXXX)}"
if [[ -z "${STREAMLIT_PORTS:-}" ]]; then
    STREAMLIT_PORTS="$(seq -s ' ' 8501 $((8500 + PROCESSES)))"
fi
read -r -a PORTS <<< "$STREAMLIT_PORTS"
PYTHON="${PYTHON:-$(command -v python || command -v python3)}"
NGINX_BIN="${NGINX_BIN:-$(command -v nginx || echo /usr/sbin/nginx)}"
mkdir -p "$RUN_DIR/tmp" "$RUN_DIR/www"
# nginx's workers drop root for an unprivileged user: they must be able to read the files
chmod a+rx "$RUN_DIR" "$RUN_DIR/www"

if ! "$PYTHON" -c 'import supervisor' 2>/dev/null; then
    echo "supervisord is missing: python -m pip install -r requirements-deploy.txt" >&2
    exit 2
fi
ROOT="$PWD"
CONF="$RUN_DIR/supervisord.conf"

# supervisord runs in the background of this script, which waits for it; a signal or an
# error here stops it, and it stops every program (nginx first, redis-server last)
SUPERVISOR=""
stop() {
    trap - EXIT INT TERM
    if [[ -n "$SUPERVISOR" ]]; then
        kill -TERM "$SUPERVISOR" 2>/dev/null || true
        wait "$SUPERVISOR" 2>/dev/null || true
    fi
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# a value in supervisord's config: its % would start an expansion
conf_value() { printf '%s' "${1//%/%%}"; }

# 0. the walk's compiled loop, compiled once into its disk cache (core/scan.py, by
#    core/warm.py), so the processes load it instead of each compiling it at its first student
"$PYTHON" -m core.warm

(umask 077 && cat > "$CONF" <<CONF
; written by deploy/run.sh at each start
[supervisord]
nodaemon = true
logfile = $(conf_value "$RUN_DIR/supervisord.log")
pidfile = $(conf_value "$RUN_DIR/supervisord.pid")
childlogdir = $(conf_value "$RUN_DIR")
directory = $(conf_value "$ROOT")
; the open files it raises its own limit to, and its programs inherit (Debian's default of
; 1,024 let a flood of class streams time out every page)
minfds = $OPEN_FILES

; supervisorctl and the tests talk to it here (mode 700: only this user)
[unix_http_server]
file = $(conf_value "$RUN_DIR/supervisor.sock")
chmod = 0700

[rpcinterface:supervisor]
supervisor.rpcinterface_factory = supervisor.rpcinterface:make_main_rpcinterface

[supervisorctl]
serverurl = unix://$(conf_value "$RUN_DIR/supervisor.sock")
CONF
)

# one program: restarted whenever it exits; one that dies within startsecs of its start
# is started again after 1 s, then 2 s, 3 s ... and given up after startretries tries
program() {  # name, priority, startsecs, stop signal, command...
    local name="$1" priority="$2" startsecs="$3" signal="$4"
    shift 4
    local command="" word
    for word in "$@"; do command+="$(printf '%q ' "$word")"; done
    cat >> "$CONF" <<CONF

[program:$name]
command = $(conf_value "$command")
directory = $(conf_value "$ROOT")
priority = $priority
autostart = true
autorestart = true
startsecs = $startsecs
startretries = 10
stopsignal = $signal
stopwaitsecs = 15
stopasgroup = true
killasgroup = true
redirect_stderr = true
stdout_logfile = $(conf_value "$RUN_DIR/$name.log")
stdout_logfile_maxbytes = 20MB
stdout_logfile_backups = 2
CONF
}

# 0b. classes (classroom/) must be seen by every process: with more than one, a redis-server
#     on a free loopback port keeps them, with a password (in its config file and in the
#     processes' environment, never on a command line `ps` shows), unless
#     PERCEPTRON_LAB_REDIS names a Redis already. It keeps every change in an append-only
#     file (fsync once a second) in DATA_DIR, so a restarted redis-server has its classes
redis_port=""
if (( ${#PORTS[@]} > 1 )) && [[ -z "${PERCEPTRON_LAB_REDIS:-}" ]]; then
    REDIS_SERVER="${REDIS_SERVER:-$(command -v redis-server || echo /usr/bin/redis-server)}"
    redis_port="${REDIS_PORT:-$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}"
    REDIS_PASSWORD="${REDIS_PASSWORD:-$("$PYTHON" -c 'import secrets; print(secrets.token_hex(32))')}"
    DATA_DIR="${DATA_DIR:-$RUN_DIR/redis}"
    (umask 077 && mkdir -p "$DATA_DIR")
    # maxmemory with noeviction: every key of a class expires by itself, and the counts that
    # fill Redis are bounded (classes, remote links per class, followers); past maxmemory a
    # write is refused (a 503 the page retries), and no live class's key is ever evicted
    (umask 077 && printf 'port %s\nbind 127.0.0.1\ndaemonize no\nsave ""\nappendonly yes\nappendfsync everysec\ndir %s\nrequirepass %s\nmaxmemory %s\nmaxmemory-policy noeviction\n' \
        "$redis_port" "$DATA_DIR" "$REDIS_PASSWORD" "$REDIS_MAXMEMORY" > "$RUN_DIR/redis.conf")
    program redis 10 2 TERM "$REDIS_SERVER" "$RUN_DIR/redis.conf"
    export PERCEPTRON_LAB_REDIS="redis://127.0.0.1:$redis_port/0"
    export PERCEPTRON_LAB_REDIS_PASSWORD="$REDIS_PASSWORD"
fi

# 0c. the secret that signs voter identities: one for every process, or a vote cast
#     through one would be refused by the others
if [[ -z "${PERCEPTRON_LAB_SECRET:-}" ]]; then
    (umask 077 && "$PYTHON" -c 'import secrets; print(secrets.token_hex(32))' > "$RUN_DIR/class-secret")
    PERCEPTRON_LAB_SECRET="$(cat "$RUN_DIR/class-secret")"
fi
export PERCEPTRON_LAB_SECRET

# 1. the Streamlit processes, each on its own loopback port, sharing one cookie secret
#    (in the environment, which supervisord passes on, so it shows neither in `ps` nor in
#    supervisord's config)
STREAMLIT_SERVER_COOKIE_SECRET="${COOKIE_SECRET:-$("$PYTHON" -c 'import secrets; print(secrets.token_hex(32))')}"
export STREAMLIT_SERVER_COOKIE_SECRET
if [[ -n "${PUBLIC_URL:-}" ]]; then export PERCEPTRON_LAB_PUBLIC_URL="$PUBLIC_URL"; fi
read -r -a OPTS <<< "${STREAMLIT_OPTS:-}"
for port in "${PORTS[@]}"; do
    program "streamlit-$port" 20 5 TERM "$PYTHON" -m streamlit run app.py \
        --server.headless true --server.address 127.0.0.1 --server.port "$port" \
        --browser.gatherUsageStats false --server.fileWatcherType none "${OPTS[@]}"
done

# 2. Streamlit's static files, gzipped once, for nginx to serve from disk
if [[ "$PRECOMPRESS" == 1 ]]; then
    static="$("$PYTHON" -c 'import streamlit.file_util as f; print(f.get_static_dir())')"
    if [[ ! -f "$RUN_DIR/www/.done" ]]; then
        cp -r "$static/." "$RUN_DIR/www/"
        find "$RUN_DIR/www" -type f \( -name '*.js' -o -name '*.css' -o -name '*.svg' \
            -o -name '*.json' -o -name '*.ttf' -o -name '*.html' \) -size +1k \
            -exec gzip -k -6 -f {} +
        touch "$RUN_DIR/www/.done"
    fi
fi

# 3. nginx, from the template: a process that refuses a connection is left alone for a few
#    seconds (max_fails, fail_timeout) and the request goes to another (proxy_next_upstream)
upstreams=""
for port in "${PORTS[@]}"; do upstreams+="server 127.0.0.1:$port max_fails=1 fail_timeout=5s; "; done
framing=()
if (( ${#FRAMERS[@]} )); then
    # the named sites may frame the app (CSP; X-Frame-Options cannot name them, and browsers
    # follow frame-ancestors where both are sent); the sticky cookie must reach a framed page
    framing=(-e "s|frame-ancestors 'self'|frame-ancestors 'self' ${FRAMERS[*]}|"
             -e 's|add_header X-Frame-Options "SAMEORIGIN" always;|# (X-Frame-Options: none; frame-ancestors names the sites)|'
             -e 's|SameSite=Lax";|SameSite=None; Secure; Partitioned";|')
fi
access="access_log off;"
if [[ -n "${ACCESS_LOG:-}" ]]; then access="access_log ${ACCESS_LOG} routed;"; fi
connections=$(( OPEN_FILES / 2 ))
sed -e "s|@LISTEN@|$LISTEN|" -e "s|@UPSTREAMS@|$upstreams|" -e "s|@STATIC@|$RUN_DIR/www|" \
    -e "s|@ACCESS_LOG@|$access|" -e "s|@FILES@|$OPEN_FILES|" -e "s|@CONNECTIONS@|$connections|" \
    -e "s|@REAL_IP@|$real_ip|" "${framing[@]}" deploy/nginx.conf > "$RUN_DIR/nginx.conf"
"$NGINX_BIN" -t -q -e stderr -p "$RUN_DIR" -c "$RUN_DIR/nginx.conf"
# nginx's master stops at once on TERM (QUIT would wait for every WebSocket to close). A
# master that was killed outright leaves its workers serving the port, which a new master
# cannot bind: its start stops them first (the old master's process group, by its pid file)
cat > "$RUN_DIR/nginx.sh" <<START
#!/usr/bin/env bash
old="\$(cat $(printf '%q' "$RUN_DIR/nginx.pid") 2>/dev/null)"
if [[ "\$old" =~ ^[0-9]+\$ ]] && pgrep -g "\$old" -x nginx >/dev/null; then
    kill -TERM -- "-\$old" 2>/dev/null || true
fi
exec $(printf '%q ' "$NGINX_BIN") -e stderr -p $(printf '%q' "$RUN_DIR") -c $(printf '%q' "$RUN_DIR/nginx.conf")
START
program nginx 30 1 TERM bash "$RUN_DIR/nginx.sh"

"$PYTHON" -m supervisor.supervisord -c "$CONF" &
SUPERVISOR="$!"

alive() { kill -0 "$SUPERVISOR" 2>/dev/null; }
if [[ -n "$redis_port" ]]; then
    for _ in $(seq 1 50); do
        "$PYTHON" -c "import os, redis; redis.Redis(port=$redis_port, socket_timeout=1, \
password=os.environ['PERCEPTRON_LAB_REDIS_PASSWORD']).ping()" 2>/dev/null && break
        alive || break
        sleep 0.2
    done
fi
for port in "${PORTS[@]}"; do
    healthy=0
    for _ in $(seq 1 120); do
        if "$PYTHON" -c "import sys, urllib.request as u; \
sys.exit(u.urlopen('http://127.0.0.1:$port/_stcore/health', timeout=2).read() != b'ok')" \
            2>/dev/null; then
            healthy=1
            break
        fi
        alive || break
        sleep 0.5
    done
    if [[ "$healthy" != 1 ]]; then
        echo "Streamlit on port $port did not start; see $RUN_DIR/streamlit-$port.log" >&2
        exit 1
    fi
done

# the processes' first pids (the benchmarks watch them; a restarted one has another)
: > "$RUN_DIR/streamlit.pids"
for port in "${PORTS[@]}"; do
    "$PYTHON" -m supervisor.supervisorctl -c "$CONF" pid "streamlit-$port" >> "$RUN_DIR/streamlit.pids"
done
echo "Perceptron Lab: http://$LISTEN/ -> ${#PORTS[@]} Streamlit processes (${PORTS[*]});" \
     "logs and config in $RUN_DIR"
touch "$RUN_DIR/ready"
# until supervisord stops (a signal to this script stops it first)
wait "$SUPERVISOR" || true
SUPERVISOR=""
