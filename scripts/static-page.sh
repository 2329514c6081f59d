#!/bin/sh
# Builds the board page without a server (docs/BOARD.md, "The static page") into DIR: the
# page's files and the engine compiled to WebAssembly (crates/web), for any web host.
#
#   scripts/static-page.sh DIR
#
# Needs the wasm32-unknown-unknown target (`rustup target add wasm32-unknown-unknown`) and
# the wasm-bindgen CLI of the version crates/web pins (`cargo install wasm-bindgen-cli
# --version 0.2.130`).
set -eu
dir=${1:?usage: scripts/static-page.sh DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
want=$(sed -n 's/^wasm-bindgen = "=\(.*\)"$/\1/p' "$root/crates/web/Cargo.toml")
have=$(wasm-bindgen --version 2>/dev/null | sed 's/^wasm-bindgen //') || true
if [ "$have" != "$want" ]; then
    echo "error: wasm-bindgen $want is needed (found: ${have:-none}):" >&2
    echo "    cargo install wasm-bindgen-cli --version $want" >&2
    exit 1
fi
if [ -e "$dir" ] && [ ! -f "$dir/index.html" ] && [ -n "$(ls -A "$dir")" ]; then
    echo "error: $dir is a directory with other files in it; give a new or empty one" >&2
    exit 1
fi
cd "$root"
cargo build -p othello-web --target wasm32-unknown-unknown --release
mkdir -p "$dir/pkg"
wasm-bindgen --target web --no-typescript --out-dir "$dir/pkg" \
    target/wasm32-unknown-unknown/release/othello_web.wasm
cp web/board.js web/board.css web/static.js web/engine-worker.js "$dir/"
sed 's/<html lang="en">/<html lang="en" data-engine="wasm">/' web/index.html > "$dir/index.html"
grep -q 'data-engine="wasm"' "$dir/index.html"
echo "the static page is in $dir: serve it over HTTP (e.g. python3 -m http.server -d $dir)"
