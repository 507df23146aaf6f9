#!/usr/bin/env bash
# Runs the uniform-capture matrix on one backend and prints one JSON line per run:
#   4 modes x 5 scenarios at 1000 draws x 2 passes, then the static scaling
#   (1k, 3k, 10k, 100k draws) for struct, typed and raw.
# Usage: benches/run-matrix.sh [auto|vulkan|gl|noop] [extra uniform-capture flags...]
#   e.g. benches/run-matrix.sh noop --frames 50 --warmup 5
# A run that fails prints {"mode":…,"scenario":…,"draws":…,"error":"…"} instead, and the script
# exits 1 at the end. Progress and errors go to stderr; stdout has only JSON lines.
set -u -o pipefail

backend="${1:-auto}"
shift || true
case "$backend" in
  auto|vulkan|gl|noop) ;;
  *) echo "usage: $0 [auto|vulkan|gl|noop] [extra uniform-capture flags...]" >&2; exit 2 ;;
esac

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
# UNIFORM_CAPTURE_BIN: a prebuilt binary (e.g. carried to a machine without cargo).
if [ -n "${UNIFORM_CAPTURE_BIN:-}" ]; then
  bin="$UNIFORM_CAPTURE_BIN"
else
  cargo build --release --quiet -p vgpu-benches --bin uniform-capture >&2 || exit 1
  bin="${CARGO_TARGET_DIR:-$root/target}/release/uniform-capture"
fi

status=0
run() { # mode scenario draws
  local out err
  err="$(mktemp)"
  echo "uniform-capture --mode $1 --scenario $2 --draws $3 --passes 2 --backend $backend ${extra[*]}" >&2
  if out="$("$bin" --mode "$1" --scenario "$2" --draws "$3" --passes 2 --backend "$backend" "${extra[@]}" --json 2>"$err")"; then
    printf '%s\n' "$out" | tail -n 1
  else
    local msg
    msg="$(tr '\n' ' ' <"$err" | sed 's/\\/\\\\/g; s/"/\\"/g')"
    printf '{"mode":"%s","scenario":"%s","draws":%s,"backend":"%s","error":"%s"}\n' "$1" "$2" "$3" "$backend" "$msg"
    status=1
  fi
  rm -f "$err"
}

extra=("$@")
for mode in raw buffer struct typed; do
  for scenario in static per-pass-camera one-changes all-change reset-all; do
    run "$mode" "$scenario" 1000
  done
done
for draws in 1000 3000 10000 100000; do
  for mode in raw struct typed; do
    run "$mode" static "$draws"
  done
done
exit "$status"
