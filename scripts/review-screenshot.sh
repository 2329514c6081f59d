#!/usr/bin/env bash
# Reviews one real game with `othello review`, renders its HTML page in headless Chromium and
# saves a screenshot, so that the page can be looked at (docs/REVIEW.md). Not part of CI.
#
#   scripts/review-screenshot.sh [GAME_FILE] [K] [OUT_DIR]
#
# Defaults: game 1426 of ../shared/data/wthor/WTH_2025.wtb (Takanashi Yusuke - Kurita Seiya,
# World Championship 2025, 31-33) into target/review/. Writes review.txt (the table, with the
# time taken in its header), review.json, review.html and review.png (1200 px wide, the whole
# page). Needs Chromium: `apt-get install -y chromium` on Debian.
set -euo pipefail
cd "$(dirname "$0")/.."

file=${1:-../shared/data/wthor/WTH_2025.wtb}
game=${2:-1426}
out=${3:-target/review}

browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ]; then
    echo "no Chromium found: install it (Debian: apt-get install -y chromium)" >&2
    exit 1
fi

cargo build --release --quiet
mkdir -p "$out"
out=$(cd "$out" && pwd)

start=$(date +%s.%N)
target/release/othello review "$file" --game "$game" --html "$out/review.html" --quiet \
    > "$out/review.txt"
end=$(date +%s.%N)
target/release/othello review "$file" --game "$game" --json --quiet > "$out/review.json"

# --no-sandbox: Chromium refuses to start its sandbox as root (containers, CI images).
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --window-size=1200,3400 --screenshot="$out/review.png" "file://$out/review.html" \
    2> "$out/chromium.log"

head -n 4 "$out/review.txt"
awk -v s="$start" -v e="$end" 'BEGIN { printf "review wall time: %.1f s\n", e - s }'
echo "table:      $out/review.txt"
echo "json:       $out/review.json"
echo "page:       $out/review.html"
echo "screenshot: $out/review.png (look at it)"
