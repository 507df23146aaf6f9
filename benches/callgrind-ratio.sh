#!/usr/bin/env bash
# Instructions per steady frame of the uniform-capture benchmark, per mode, and the ratios to
# `raw` and to `raw-bundle`: runs each mode under `valgrind --tool=callgrind` for F1 and for F2 frames (same warm-up)
# on the noop device and prints (Ir(F2) - Ir(F1)) / (F2 - F1), which leaves out start-up, warm-up
# and exit. Instruction counts hardly move with machine load, unlike times.
#
#   benches/callgrind-ratio.sh [--scenario static] [--draws 1000] [--passes 2]
#                              [--modes raw,raw-bundle,struct,typed,buffer] [--f1 20] [--f2 120]
#                              [--warmup 3] [--bin target/release/uniform-capture]
#                              [--without-realloc] [--vector-copies]
#
# Needs valgrind (apt-get install -y valgrind). Without --bin it builds the release binary.
# --scenario takes any of the binary's scenarios (static, per-pass-camera, one-changes,
# all-change, reset-all, reshuffle), --modes any of its modes. One line per mode, printed once
# every mode ran; the ratio to raw-bundle is added when raw-bundle is among the modes, each
# ratio left out when its base was not measured:
#   static              1000x2 struct       3,349,791 Ir/frame   1674.9 Ir/draw  1.083x raw  7.410x raw-bundle
# --without-realloc adds a line per mode, marked `(realloc left out)`, with glibc's `realloc`
# (inclusive) left out of both runs: the copies it makes when wgpu-core's per-pass command
# vectors grow depend on the heap's layout, not on the code measured (a diagnosis aid; the
# targets use the first line).
# --vector-copies runs every mode with glibc's `rep movsb` threshold out of reach, so `memcpy`
# copies with vector moves: callgrind counts one instruction per `rep movsb` iteration (per
# byte), so `realloc`'s copies otherwise weigh about 32 times what they cost the CPU, and the
# ratios swing by several hundredths between builds of the same code (a diagnosis aid too).
set -euo pipefail

scenario=static draws=1000 passes=2 modes=raw,raw-bundle,struct,typed,buffer f1=20 f2=120 warmup=3 bin=""
without_realloc=0 tunables=glibc.malloc.mmap_threshold=131072
while [ $# -gt 0 ]; do
  case "$1" in
    --scenario) scenario=$2; shift 2 ;;
    --draws) draws=$2; shift 2 ;;
    --passes) passes=$2; shift 2 ;;
    --modes) modes=$2; shift 2 ;;
    --f1) f1=$2; shift 2 ;;
    --f2) f2=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --bin) bin=$2; shift 2 ;;
    --without-realloc) without_realloc=1; shift ;;
    --vector-copies) tunables=$tunables:glibc.cpu.x86_rep_movsb_threshold=4294967295; shift ;;
    -h | --help) awk 'NR > 1 && !/^#/ { exit } NR > 1' "$0"; exit 0 ;;
    *) echo "callgrind-ratio: unknown argument $1 (try --help)" >&2; exit 2 ;;
  esac
done
command -v valgrind >/dev/null || { echo "callgrind-ratio: valgrind is missing" >&2; exit 2; }
if [ -z "$bin" ]; then
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  (cd "$root" && cargo build -q --release -p vgpu-benches --bin uniform-capture)
  bin="${CARGO_TARGET_DIR:-$root/target}/release/uniform-capture"
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# Total instructions of one run of `frames` frames.
instructions() { # mode frames
  local out="$tmp/$1-$2.out"
  # A fixed mmap threshold: glibc otherwise moves it with the run's allocations, and the copies
  # realloc makes (wgpu's per-pass vectors) then differ between the two runs.
  GLIBC_TUNABLES=$tunables \
    valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" --mode "$1" \
    --scenario "$scenario" --draws "$draws" --passes "$passes" --frames "$2" \
    --warmup "$warmup" --backend noop --json >/dev/null 2>"$tmp/log" \
    || { cat "$tmp/log" >&2; exit 1; }
  awk '/^(summary|totals):/ { print $2; exit }' "$out"
}

# Instructions spent in glibc's `realloc` (inclusive) in the run `instructions` left.
realloc_instructions() { # mode frames
  callgrind_annotate --inclusive=yes "$tmp/$1-$2.out" 2>/dev/null \
    | awk '!found && /malloc\.c:realloc \[/ { gsub(",", "", $1); print $1; found = 1 }
           END { if (!found) print 0 }'
}

print_line() { # label per_frame raw_per_frame raw_bundle_per_frame [suffix]
  awk -v s="$scenario" -v d="$draws" -v p="$passes" -v m="$1" -v f="$2" \
      -v r="$3" -v b="$4" -v x="${5:-}" 'function commas(n,   s, out) {
        s = sprintf("%d", n); out = ""
        while (length(s) > 3) { out = "," substr(s, length(s) - 2) out; s = substr(s, 1, length(s) - 3) }
        return s out
      }
      BEGIN {
        ratio = (r == "" ? "" : sprintf("%6.3fx raw", f / r))
        if (b != "") ratio = ratio (ratio == "" ? "" : "  ") sprintf("%6.3fx raw-bundle", f / b)
        printf "%-19s %4dx%d %-10s %13s Ir/frame %8.1f Ir/draw  %s%s\n", s, d, p, m, commas(f), f / (d * p), ratio, x
      }'
}

# Measure every mode first, then print: each line's ratios need raw's and raw-bundle's
# figures, whatever the order of --modes.
declare -A per_frame=() without=()
IFS=, read -r -a mode_list <<<"$modes"
for mode in "${mode_list[@]}"; do
  a=$(instructions "$mode" "$f1")
  b=$(instructions "$mode" "$f2")
  per_frame[$mode]=$(( (b - a) / (f2 - f1) ))
  if [ "$without_realloc" = 1 ]; then
    ra=$(realloc_instructions "$mode" "$f1")
    rb=$(realloc_instructions "$mode" "$f2")
    without[$mode]=$(( (b - rb - a + ra) / (f2 - f1) ))
  fi
done
for mode in "${mode_list[@]}"; do
  print_line "$mode" "${per_frame[$mode]}" "${per_frame[raw]:-}" "${per_frame[raw-bundle]:-}"
  if [ "$without_realloc" = 1 ]; then
    print_line "$mode" "${without[$mode]}" "${without[raw]:-}" "${without[raw-bundle]:-}" \
      "  (realloc left out)"
  fi
done
