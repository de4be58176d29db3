#!/usr/bin/env bash
# vendor/unicorn.sh -- make or check vendor/unicorn-engine: the crate
# unicorn-engine 2.1.3 exactly as crates.io publishes it, pruned to the x86
# target, with vendor/unicorn-patches/*.patch applied (vendor/README.md).
# Part of toolhelp16 (GPL-2.0-or-later).
#
#   vendor/unicorn.sh make CRATE   rebuild the tree from CRATE (the .crate
#                                  file; its SHA-256 must be the one
#                                  crates.io published) and rewrite
#                                  vendor/unicorn-pristine.txt
#   vendor/unicorn.sh check [TREE] take the patches back out of a copy of
#                                  the tree (or of TREE) and compare every
#                                  file with vendor/unicorn-pristine.txt
#
# The manifest lists each file of the pruned, unpatched tree with its git
# blob id (`git hash-object`), sorted by path. `check` needs only git and
# the repository: tests/vendor.rs runs it.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tree="$here/unicorn-engine"
patches="$here/unicorn-patches"
manifest="$here/unicorn-pristine.txt"
crate_sha256=827118d4fdedff61086fe435c6bd84f9f7e2f189a7d0fdcffdb788b23cea10d8

# What the x86-only build does not read: the other targets (but for the
# small unicorn.h of each, which uc.c includes), their symbol headers,
# their hardware, decimal floating point (PowerPC's), the MSVC build, the
# upstream CI, and the crate's own lock file and extraction marker.
prune() {
    local d=$1 a
    for a in arm m68k mips ppc riscv s390x sparc tricore; do
        find "$d/qemu/target/$a" -mindepth 1 ! -name unicorn.h -delete
    done
    for a in aarch64 arm m68k mips mips64 mips64el mipsel ppc ppc64 riscv32 \
             riscv64 s390x sparc sparc64 tricore; do
        rm -f "$d/qemu/$a.h"
    done
    rm -rf "$d/qemu/hw/ppc" "$d/qemu/hw/s390x" "$d/qemu/libdecnumber" \
        "$d/msvc" "$d/.github" "$d/Cargo.lock" "$d/.cargo-ok"
}

# manifest DIR: every file under DIR with its blob id, sorted by path.
manifest_of() {
    (cd "$1" && find . -type f | LC_ALL=C sort | sed 's|^\./||' \
        | while IFS= read -r f; do
            printf '%s  %s\n' "$(git hash-object --no-filters -- "$f")" "$f"
        done)
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# git apply works like patch(1) outside a repository; keep it from finding
# one above the scratch directory (a TMPDIR inside a checkout).
export GIT_CEILING_DIRECTORIES="$work"

case "${1:-}" in
make)
    crate=${2:?usage: vendor/unicorn.sh make CRATE}
    sum=$(sha256sum "$crate" | cut -d' ' -f1)
    if [[ "$sum" != "$crate_sha256" ]]; then
        echo "unicorn.sh: $crate: SHA-256 $sum, not crates.io's $crate_sha256" >&2
        exit 1
    fi
    tar -xzf "$crate" -C "$work"
    src=$(echo "$work"/unicorn-engine-*)
    prune "$src"
    manifest_of "$src" > "$manifest"
    for p in "$patches"/*.patch; do
        (cd "$src" && git apply -p1 "$p")
    done
    rm -rf "$tree"
    mv "$src" "$tree"
    echo "unicorn.sh: $tree made; $manifest written"
    ;;
check)
    cp -a "${2:-$tree}" "$work/t"
    mapfile -t list < <(ls "$patches"/*.patch | LC_ALL=C sort -r)
    for p in "${list[@]}"; do
        if ! (cd "$work/t" && git apply -R -p1 "$p"); then
            echo "unicorn.sh: $(basename "$p") does not come back out of ${2:-vendor/unicorn-engine}" >&2
            exit 1
        fi
    done
    if ! diff -u "$manifest" <(manifest_of "$work/t") > "$work/diff"; then
        echo "unicorn.sh: ${2:-vendor/unicorn-engine}, patches taken out, is not the pristine crate:" >&2
        cat "$work/diff" >&2
        exit 1
    fi
    echo "unicorn.sh: vendor/unicorn-engine is unicorn-engine 2.1.3 (pruned) with $(ls "$patches"/*.patch | wc -l) patches"
    ;;
*)
    echo "usage: vendor/unicorn.sh make CRATE | vendor/unicorn.sh check [TREE]" >&2
    exit 2
    ;;
esac
