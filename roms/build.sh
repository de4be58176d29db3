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

# linkmap SOURCE OUT: for an NE program (inc/ne.inc), write OUT's stem.map
# in Microsoft LINK's format from NASM's own map (tools/linkmap.awk), so
# toolhelp16 finds it beside the program and names every function.
linkmap() {
    local src=$1 out=$2 tmp module
    tmp=$(mktemp -d)
    printf '[map all %s/nasm.map]\n%%include "%s"\n' "$tmp" "$src" > "$tmp/wrap.asm"
    nasm -f bin -Ox -I./ -o "$tmp/out.bin" "$tmp/wrap.asm"
    if grep -q '^---- Section ne_seg1 ' "$tmp/nasm.map"; then
        module=$(sed -n "s/^ *\(NE_MODULE\|WIN16_APP\) *'\([^']*\)'.*/\2/p" "$src" | head -n 1)
        awk -v module="$module" -f tools/linkmap.awk "$tmp/nasm.map" > "${out%.*}.map"
        printf '%-14s -> %-14s (LINK map)\n' "$src" "${out%.*}.map"
    fi
    rm -rf "$tmp"
}

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
    linkmap "$src" "$out"
done
exit "$status"
