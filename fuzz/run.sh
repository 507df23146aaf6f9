#!/usr/bin/env bash
# Runs vgpu's fuzz targets one after another, SECONDS each (default 30), and prints one summary
# line per target: executions, corpus size, findings. Exits non-zero if any target found a crash
# (or a timeout / out-of-memory), i.e. libFuzzer failed or left a new file in
# fuzz/artifacts/<target>/.
#
#   fuzz/run.sh [SECONDS] [TARGET...]          targets: shader pack typed api image modules (default: all)
#
# Environment:
#   FUZZ_BIN_DIR=dir   run prebuilt binaries dir/<target> (no cargo; built by
#                      `cargo +nightly fuzz build -O` in fuzz/, they are in
#                      fuzz/target/x86_64-unknown-linux-gnu/release/)
#   FUZZ_FORK=N        pass -fork=N to libFuzzer (N worker processes)
#   FUZZ_DEBUG_ASSERTIONS=1   build with debug assertions (`cargo fuzz build -O -a`)
#   FUZZ_TIMEOUT=s     per-input timeout (default 30: a slower input is a hang, a finding)
#   FUZZ_RSS_MB=mb     memory limit per process (default 4096)
#   FUZZ_MAX_LEN=n     maximum input length (default: libFuzzer's, from the corpus)
#   FUZZ_ARGS="..."    more libFuzzer flags
#
# Corpora grow in fuzz/corpus/<target>/ (not committed); the committed seeds
# (fuzz/seeds/<target>/) and regression inputs (fuzz/regressions/<target>/) are read as extra
# corpus directories, so every run replays them first. Logs: fuzz/logs/<target>.log. Inputs
# that hit a naga panic vgpu contained (VGPU-SHADER-INTERNAL) go to fuzz/contained/<target>/.
set -uo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
secs="${1:-30}"
[ $# -gt 0 ] && shift
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(shader pack typed api image modules)

if [ -n "${FUZZ_BIN_DIR:-}" ]; then
    bin_dir="$(cd "$FUZZ_BIN_DIR" && pwd)"
else
    if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
        echo "run.sh: installing cargo-fuzz" >&2
        cargo install cargo-fuzz --locked || exit 2
    fi
    build=(cargo +nightly fuzz build -O)
    [ "${FUZZ_DEBUG_ASSERTIONS:-0}" = 1 ] && build+=(-a)
    echo "run.sh: ${build[*]}" >&2
    (cd "$here" && "${build[@]}") || exit 2
    bin_dir="$here/target/x86_64-unknown-linux-gnu/release"
fi

mkdir -p "$here/logs"
status=0
for t in "${targets[@]}"; do
    bin="$bin_dir/$t"
    if [ ! -x "$bin" ]; then
        echo "$t: no binary at $bin" >&2
        status=2
        continue
    fi
    corpus="$here/corpus/$t"
    artifacts="$here/artifacts/$t"
    contained="$here/contained/$t"
    log="$here/logs/$t.log"
    mkdir -p "$corpus" "$artifacts"
    dirs=("$corpus")
    for extra in "$here/seeds/$t" "$here/regressions/$t"; do
        [ -d "$extra" ] && dirs+=("$extra")
    done
    before=$(find "$artifacts" -maxdepth 1 -type f | wc -l)
    args=(
        -max_total_time="$secs"
        -print_final_stats=1
        -timeout="${FUZZ_TIMEOUT:-30}"
        -rss_limit_mb="${FUZZ_RSS_MB:-4096}"
        -artifact_prefix="$artifacts/"
    )
    # The structured targets decode whole operation lists: start at full length instead of
    # libFuzzer's slowly growing limit.
    case "$t" in pack | typed | api | modules) args+=(-len_control=0) ;; esac
    [ -n "${FUZZ_MAX_LEN:-}" ] && args+=(-max_len="$FUZZ_MAX_LEN")
    [ -n "${FUZZ_FORK:-}" ] && args+=(-fork="$FUZZ_FORK")
    # shellcheck disable=SC2206
    [ -n "${FUZZ_ARGS:-}" ] && args+=($FUZZ_ARGS)
    VGPU_FUZZ_CONTAINED_DIR="$contained" "$bin" "${args[@]}" "${dirs[@]}" >"$log" 2>&1
    rc=$?
    # Executions: libFuzzer's final stats; in fork mode (no final stats) its last status line.
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')
    [ -z "$execs" ] && execs=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')
    execs=${execs:-0}
    corpus_size=$(find "$corpus" -maxdepth 1 -type f | wc -l)
    after=$(find "$artifacts" -maxdepth 1 -type f | wc -l)
    new=$((after - before))
    naga=0
    [ -d "$contained" ] && naga=$(find "$contained" -maxdepth 1 -type f | wc -l)
    line="$t: $execs executions, corpus $corpus_size files, findings $after ($new new) in fuzz/artifacts/$t/"
    [ "$naga" -gt 0 ] && line="$line, $naga contained naga panics in fuzz/contained/$t/"
    if [ "$rc" -ne 0 ] || [ "$new" -gt 0 ]; then
        line="$line, FAILED (libFuzzer exit $rc; log fuzz/logs/$t.log)"
        status=1
    fi
    echo "$line"
done
exit $status
