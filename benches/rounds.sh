#!/usr/bin/env bash
# Interleaved rounds of `uniform-capture` runs, for wall-time comparisons on a machine whose speed
# drifts between runs (a shared GPU host): each round runs every scenario in every mode once,
# starting from a different mode each round, so the runs of one round are close in time and a
# mode's time can be compared with raw's of the same round (a paired ratio). Prints one JSON
# line per run: `uniform-capture --json`'s object with `"round"` added first.
#
#   benches/rounds.sh [--backend noop] [--rounds 20] [--modes raw,struct,typed,buffer]
#                     [--scenarios static,per-pass-camera,one-changes,all-change,reset-all]
#                     [--draws 1000] [--passes 2] [--frames 300] [--warmup 30] [--pin CPUS]
#
# --pin runs each process under `taskset -c CPUS`. UNIFORM_CAPTURE_BIN: a prebuilt binary (one
# carried to a machine without cargo); without it the release binary is built. A failed run
# prints {"round":…,"mode":…,"scenario":…,"error":"…"} and the script exits 1 at the end.
# `benches/rounds-summary.py` turns the lines into a table (fastest, median, paired ratio).
set -u -o pipefail

backend=noop rounds=20 modes=raw,struct,typed,buffer draws=1000 passes=2 frames=300 warmup=30
scenarios=static,per-pass-camera,one-changes,all-change,reset-all pin=""
while [ $# -gt 0 ]; do
  case "$1" in
    --backend) backend=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --modes) modes=$2; shift 2 ;;
    --scenarios) scenarios=$2; shift 2 ;;
    --draws) draws=$2; shift 2 ;;
    --passes) passes=$2; shift 2 ;;
    --frames) frames=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --pin) pin=$2; shift 2 ;;
    -h | --help) awk 'NR > 1 && !/^#/ { exit } NR > 1' "$0"; exit 0 ;;
    *) echo "rounds: unknown argument $1 (try --help)" >&2; exit 2 ;;
  esac
done

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ -n "${UNIFORM_CAPTURE_BIN:-}" ]; then
  bin="$UNIFORM_CAPTURE_BIN"
else
  (cd "$root" && cargo build --release --quiet -p vgpu-benches --bin uniform-capture) >&2 || exit 1
  bin="${CARGO_TARGET_DIR:-$root/target}/release/uniform-capture"
fi
launcher=()
[ -n "$pin" ] && launcher=(taskset -c "$pin")

IFS=, read -r -a mode_list <<<"$modes"
IFS=, read -r -a scenario_list <<<"$scenarios"
n=${#mode_list[@]}
status=0
for ((round = 0; round < rounds; round++)); do
  for scenario in "${scenario_list[@]}"; do
    for ((k = 0; k < n; k++)); do
      mode=${mode_list[$(((k + round) % n))]}
      err="$(mktemp)"
      if out="$("${launcher[@]}" "$bin" --mode "$mode" --scenario "$scenario" --draws "$draws" \
        --passes "$passes" --frames "$frames" --warmup "$warmup" --backend "$backend" --json \
        2>"$err" | tail -n 1)" && [ "${out:0:1}" = "{" ]; then
        printf '{"round":%d,%s\n' "$round" "${out:1}"
      else
        msg="$(tr '\n' ' ' <"$err" | sed 's/\\/\\\\/g; s/"/\\"/g')"
        printf '{"round":%d,"mode":"%s","scenario":"%s","error":"%s"}\n' \
          "$round" "$mode" "$scenario" "$msg"
        status=1
      fi
      rm -f "$err"
    done
  done
done
exit "$status"
