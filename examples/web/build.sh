#!/usr/bin/env bash
# Builds the web example into a folder any static server can serve (default examples/web/pkg):
# the wasm module (release), its JS glue (wasm-bindgen --target web) and index.html.
# Installs what is missing: the wasm32-unknown-unknown target, and wasm-bindgen-cli at exactly
# the wasm-bindgen version in Cargo.lock (the CLI and the library must match).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${1:-$here/pkg}"
cd "$root"

# Exit status 2: the environment lacks something that could not be installed (no network…);
# anything else that fails is a real failure (the build).
rustup target add wasm32-unknown-unknown \
  || { echo "build.sh: rustup could not install the wasm32-unknown-unknown target" >&2; exit 2; }
version="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)"
[ -n "$version" ] || { echo "build.sh: no wasm-bindgen in Cargo.lock" >&2; exit 1; }
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$version" ]; then
  echo "build.sh: installing wasm-bindgen-cli $version"
  # --locked first (the CLI's own lock file); if the registry no longer resolves that lock
  # (a yanked or missing pinned dependency), without it.
  cargo install --locked wasm-bindgen-cli --version "$version" \
    || cargo install wasm-bindgen-cli --version "$version" \
    || { echo "build.sh: wasm-bindgen-cli $version could not be installed" >&2; exit 2; }
fi

cargo build --release --target wasm32-unknown-unknown -p vgpu-web
target_dir="${CARGO_TARGET_DIR:-$root/target}"
mkdir -p "$out"
wasm-bindgen --target web --no-typescript --out-dir "$out" \
  "$target_dir/wasm32-unknown-unknown/release/vgpu_web.wasm"
cp "$here/index.html" "$here/app.html" "$out/"
echo "build.sh: built $out (serve it, e.g. python3 -m http.server --bind 127.0.0.1 -d $out 8000)"
