#!/usr/bin/env bash
# The browser test: builds the web example (build.sh), serves it on 127.0.0.1 and checks it in
# headless Chromium on WebGL2, then WebGPU (skipped, saying why, when the browser gives no
# adapter): steady counters 0/0 and known pixels (read back and in a screenshot).
# Installs what is missing: Debian's chromium and chromium-driver (apt), selenium (pip).
# Exit status: 0 passed (or WebGPU skipped), 1 a real failure (build, rendering, counters),
# 2 the environment cannot run it (a package or tool could not be installed).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/pkg"

env_fail() { echo "web test: cannot run here: $*" >&2; exit 2; }

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

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
python3 -m http.server --bind 127.0.0.1 --directory "$out" "$port" >/dev/null 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null' EXIT
for _ in $(seq 50); do
  python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/')" 2>/dev/null && break
  sleep 0.1
done
timeout 300 python3 "$here/browser_test.py" "http://127.0.0.1:$port/index.html" "$@"
rc=$?
[ $rc -eq 0 ] || echo "web test: FAIL (exit $rc)" >&2
[ $rc -eq 0 ] && exit 0 || exit 1
