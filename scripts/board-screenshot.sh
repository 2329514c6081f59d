#!/usr/bin/env bash
# Makes docs/board.png, the screenshot of the board page in README and docs/BOARD.md: the
# browser test `screenshot_for_the_docs` (tests/browser.rs) opens a game in headless
# Chromium, analyses it for the graph, turns hints on and saves the window.
# Needs chromium and chromium-driver (apt-get install chromium chromium-driver).
set -euo pipefail
cd "$(dirname "$0")/.."
OTHELLO_BOARD_PNG="$PWD/docs/board.png" \
    cargo test --test browser -- --ignored --exact screenshot_for_the_docs
echo "wrote docs/board.png"
