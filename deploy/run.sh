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
#
# Runs in the foreground; Ctrl+C (or SIGTERM) stops nginx and the Streamlit
# processes it started. Needs nginx (Debian: apt-get install -y nginx) and the
# app's requirements (pip install -r requirements.txt); with more than one process also
# redis-server (Debian: apt-get install -y redis-server), which keeps the classes that
# every process serves (PERCEPTRON_LAB_REDIS=redis://... to use a Redis of your own).
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

PIDS=()
stop() {
    trap - EXIT INT TERM
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# 0. the walk's compiled loop, compiled once into its disk cache (core/scan.py, by
#    core/warm.py), so the processes load it instead of each compiling it at its first student
"$PYTHON" -m core.warm

# 0b. classes (classroom/) must be seen by every process: with more than one, a redis-server
#     on a free loopback port keeps them, with a password (in its config file and in the
#     processes' environment, never on a command line `ps` shows), unless
#     PERCEPTRON_LAB_REDIS names a Redis already
if (( ${#PORTS[@]} > 1 )) && [[ -z "${PERCEPTRON_LAB_REDIS:-}" ]]; then
    REDIS_SERVER="${REDIS_SERVER:-$(command -v redis-server || echo /usr/bin/redis-server)}"
    redis_port="$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    REDIS_PASSWORD="${REDIS_PASSWORD:-$("$PYTHON" -c 'import secrets; print(secrets.token_hex(32))')}"
    (umask 077 && printf 'port %s\nbind 127.0.0.1\nsave ""\nappendonly no\ndir %s\nrequirepass %s\n' \
        "$redis_port" "$RUN_DIR" "$REDIS_PASSWORD" > "$RUN_DIR/redis.conf")
    "$REDIS_SERVER" "$RUN_DIR/redis.conf" > "$RUN_DIR/redis.log" 2>&1 &
    PIDS+=("$!")
    export PERCEPTRON_LAB_REDIS="redis://127.0.0.1:$redis_port/0"
    export PERCEPTRON_LAB_REDIS_PASSWORD="$REDIS_PASSWORD"
    for _ in $(seq 1 50); do
        "$PYTHON" -c "import os, redis; redis.Redis(port=$redis_port, socket_timeout=1, \
password=os.environ['PERCEPTRON_LAB_REDIS_PASSWORD']).ping()" 2>/dev/null && break
        sleep 0.2
    done
fi

# 0c. the secret that signs voter identities: one for every process, or a vote cast
#     through one would be refused by the others
if [[ -z "${PERCEPTRON_LAB_SECRET:-}" ]]; then
    (umask 077 && "$PYTHON" -c 'import secrets; print(secrets.token_hex(32))' > "$RUN_DIR/class-secret")
    PERCEPTRON_LAB_SECRET="$(cat "$RUN_DIR/class-secret")"
fi
export PERCEPTRON_LAB_SECRET

# 1. the Streamlit processes, each on its own loopback port, sharing one cookie secret
#    (in the environment, so it does not show in `ps`)
STREAMLIT_SERVER_COOKIE_SECRET="${COOKIE_SECRET:-$("$PYTHON" -c 'import secrets; print(secrets.token_hex(32))')}"
export STREAMLIT_SERVER_COOKIE_SECRET
if [[ -n "${PUBLIC_URL:-}" ]]; then export PERCEPTRON_LAB_PUBLIC_URL="$PUBLIC_URL"; fi
: > "$RUN_DIR/streamlit.pids"
for port in "${PORTS[@]}"; do
    # shellcheck disable=SC2086  # STREAMLIT_OPTS is a list of flags
    "$PYTHON" -m streamlit run app.py --server.headless true --server.address 127.0.0.1 \
        --server.port "$port" --browser.gatherUsageStats false \
        --server.fileWatcherType none ${STREAMLIT_OPTS:-} \
        > "$RUN_DIR/streamlit-$port.log" 2>&1 &
    PIDS+=("$!")
    echo "$!" >> "$RUN_DIR/streamlit.pids"
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

# 3. nginx, from the template
upstreams=""
for port in "${PORTS[@]}"; do upstreams+="server 127.0.0.1:$port; "; done
framing=()
if (( ${#FRAMERS[@]} )); then
    # the named sites may frame the app (CSP; X-Frame-Options cannot name them, and browsers
    # follow frame-ancestors where both are sent); the sticky cookie must reach a framed page
    framing=(-e "s|frame-ancestors 'self'|frame-ancestors 'self' ${FRAMERS[*]}|"
             -e 's|add_header X-Frame-Options "SAMEORIGIN" always;|# (X-Frame-Options: none; frame-ancestors names the sites)|'
             -e 's|SameSite=Lax";|SameSite=None; Secure; Partitioned";|')
fi
sed -e "s|@LISTEN@|$LISTEN|" -e "s|@UPSTREAMS@|$upstreams|" -e "s|@STATIC@|$RUN_DIR/www|" \
    "${framing[@]}" deploy/nginx.conf > "$RUN_DIR/nginx.conf"
"$NGINX_BIN" -t -q -e stderr -p "$RUN_DIR" -c "$RUN_DIR/nginx.conf"

for port in "${PORTS[@]}"; do
    healthy=0
    for _ in $(seq 1 120); do
        if "$PYTHON" -c "import sys, urllib.request as u; \
sys.exit(u.urlopen('http://127.0.0.1:$port/_stcore/health', timeout=2).read() != b'ok')" \
            2>/dev/null; then
            healthy=1
            break
        fi
        sleep 0.5
    done
    if [[ "$healthy" != 1 ]]; then
        echo "Streamlit on port $port did not start; see $RUN_DIR/streamlit-$port.log" >&2
        exit 1
    fi
done

"$NGINX_BIN" -e stderr -p "$RUN_DIR" -c "$RUN_DIR/nginx.conf" &
PIDS+=("$!")
echo "Perceptron Lab: http://$LISTEN/ -> ${#PORTS[@]} Streamlit processes (${PORTS[*]});" \
     "logs and config in $RUN_DIR"
touch "$RUN_DIR/ready"
wait -n
