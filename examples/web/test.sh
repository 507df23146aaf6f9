#!/usr/bin/env bash
# The browser test: builds the web example (build.sh), serves it on 127.0.0.1 and checks it in
# headless Chromium on WebGL2, then WebGPU (skipped, saying why, when the browser gives no
# adapter): steady counters 0/0, the steady frames replayed from auto-bundles (and the encode
# times on and off, printed) and known pixels (read back and in a screenshot).
# Installs what is missing: Debian's chromium and chromium-driver (apt), selenium (pip).
# Exit status: 0 passed (or WebGPU skipped), 1 a real failure (build, rendering, counters),
# 2 the environment cannot run it (a package or tool could not be installed) -- 1 instead when
# VGPU_REQUIRE lists `web` (CI: the browser test must run).
# The page is served by serve.py on a port it binds itself (port 0) and reports once it accepts
# connections; a server that does not come up fails the test, saying so.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/pkg"

env_fail() {
  echo "web test: cannot run here: $*" >&2
  if [[ ",${VGPU_REQUIRE:-}," == *,web,* ]]; then
    echo "web test: FAIL: VGPU_REQUIRE=${VGPU_REQUIRE} requires the web test" >&2
    exit 1
  fi
  exit 2
}

if ! [ -x /usr/lib/chromium/chromium ] || ! [ -x /usr/bin/chromedriver ]; then
  command -v apt-get >/dev/null || env_fail "no chromium and no apt-get to install it"
  export DEBIAN_FRONTEND=noninteractive
  timeout 600 apt-get install -y chromium chromium-driver \
    || { timeout 300 apt-get update && timeout 600 apt-get install -y chromium chromium-driver; } \
    || env_fail "apt-get could not install chromium chromium-driver"
fi
if ! python3 -c 'import selenium' 2>/dev/null; then
  timeout 300 python3 -m pip install --quiet selenium || env_fail "pip could not install selenium"
fi

timeout 1500 "$here/build.sh" "$out"
rc=$?
[ $rc -eq 2 ] && env_fail "build.sh could not install its tools"
[ $rc -eq 0 ] || { echo "web test: FAIL: build.sh exited with $rc" >&2; exit 1; }

port_file="$(mktemp)" && rm -f "$port_file"
python3 "$here/serve.py" "$out" "$port_file" 2>"$port_file.log" &
server=$!
trap 'kill "$server" 2>/dev/null; rm -f "$port_file" "$port_file.log"' EXIT
# Up to 10 s for the server to bind and say its port, then one request that must succeed.
port=""
for _ in $(seq 100); do
  [ -s "$port_file" ] && { port="$(cat "$port_file")"; break; }
  kill -0 "$server" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$port" ]; then
  echo "web test: FAIL: the HTTP server (serve.py) exited or gave no port within 10 s; its output:" >&2
  cat "$port_file.log" >&2
  exit 1
fi
python3 -c "import urllib.request, sys
try: urllib.request.urlopen(sys.argv[1], timeout=10)
except Exception as e: sys.exit(f'{sys.argv[1]}: {e}')" \
  "http://127.0.0.1:$port/index.html" \
  || { echo "web test: FAIL: the HTTP server on port $port does not serve index.html" >&2; exit 1; }
timeout 300 python3 "$here/browser_test.py" "http://127.0.0.1:$port/index.html" "$@"
rc=$?
[ $rc -eq 0 ] || echo "web test: FAIL (exit $rc)" >&2
[ $rc -eq 0 ] && exit 0 || exit 1
