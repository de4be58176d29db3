#!/usr/bin/env bash
# build.sh -- assemble every roms/*.asm into the committed binary next to it.
# Part of toolhelp16 (GPL-2.0-or-later).
#
# Each source names its output in a line `; output: NAME` (demo.exe,
# comchain.com, boot.img ...).  nasm runs inside roms/ (so `%include
# "inc/..."` resolves) with exactly the flags tests/roms_rebuild.rs uses:
#     nasm -f bin -Ox -o NAME SOURCE.asm
# nasm's bin output holds no timestamps or paths: rebuilding is
# byte-for-byte deterministic.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"

if ! command -v nasm >/dev/null 2>&1; then
    echo "build.sh: nasm not found on PATH" >&2
    exit 1
fi

status=0
for src in *.asm; do
    out=$(sed -n 's/^; output: \([^ ]*\)$/\1/p' "$src" | head -n 1)
    if [[ -z "$out" ]]; then
        echo "build.sh: $src has no '; output: NAME' line" >&2
        status=1
        continue
    fi
    nasm -f bin -Ox -o "$out" "$src"
    printf '%-14s -> %-14s %6d bytes\n' "$src" "$out" "$(wc -c < "$out")"
done
exit "$status"
