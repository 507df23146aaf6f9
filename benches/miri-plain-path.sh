#!/usr/bin/env bash
# Runs the plain typed set path (crates/vgpu/tests/plain_path.rs: values whose memory is their WGSL
# bytes, read in place) under miri on wgpu's noop device, which checks that no set reads an
# uninitialized byte (padding) or one another reference may change (interior mutability).
#
#   benches/miri-plain-path.sh            # needs a nightly toolchain with miri:
#   rustup +nightly component add miri rust-src
#
# Isolation is off: wgpu reads the environment and the clock. Leaks are not reported: wgpu and
# vgpu keep process-wide statics (a device's registry, the noop instance) that live to the end.
# MIRIFLAGS can add more (e.g. `-Zmiri-tree-borrows`).
set -euo pipefail
cd "$(dirname "$0")/.."
export VGPU_BACKEND=noop
export MIRIFLAGS="-Zmiri-disable-isolation -Zmiri-ignore-leaks ${MIRIFLAGS:-}"
# A target folder of its own: miri's builds do not share artifacts with the others.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target}/miri-plain-path"
exec cargo +nightly miri test -p vgpu --no-default-features --test plain_path "$@"
