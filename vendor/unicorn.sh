#!/usr/bin/env bash
# vendor/unicorn.sh -- the engine's patches against the crate unicorn-engine
# 2.1.3 exactly as crates.io publishes it (vendor/README.md). The build
# (build.rs) applies them to the .crate cargo downloads; this script proves
# they still do, and makes a patched tree to work on.
# Part of toolhelp16 (GPL-2.0-or-later).
#
#   vendor/unicorn.sh check [CRATE|DIR]  the crate (default: the .crate in
#                                        cargo's registry cache; its SHA-256
#                                        must be crates.io's), or an unpacked
#                                        DIR, is the one the manifest lists,
#                                        file by file, and every patch
#                                        applies to it, in order
#   vendor/unicorn.sh tree [CRATE] DIR   unpack the crate into DIR as a git
#                                        repository: the published crate as
#                                        the first commit, each patch a
#                                        commit after it (`git format-patch`
#                                        gives the patches back)
#   vendor/unicorn.sh manifest [CRATE]   rewrite vendor/unicorn-pristine.txt
#
# The manifest lists each file of the published crate with its git blob id
# (`git hash-object`), sorted by path. UNICORN_PATCHES names another
# directory of patches (tests/vendor.rs uses it).
set -euo pipefail
shopt -s nullglob

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
patches="${UNICORN_PATCHES:-$here/unicorn-patches}"
manifest="$here/unicorn-pristine.txt"
crate_name=unicorn-engine-2.1.3
crate_sha256=827118d4fdedff61086fe435c6bd84f9f7e2f189a7d0fdcffdb788b23cea10d8

# The published .crate in cargo's registry cache.
find_crate() {
    local c
    for c in "${CARGO_HOME:-$HOME/.cargo}"/registry/cache/*/"$crate_name.crate"; do
        [[ -f "$c" ]] && { echo "$c"; return 0; }
    done
    echo "unicorn.sh: no $crate_name.crate in cargo's registry cache; \`cargo fetch\` downloads it" >&2
    return 1
}

# unpack CRATE DEST: DEST/$crate_name, after the checksum.
unpack() {
    local sum
    sum=$(sha256sum "$1" | cut -d' ' -f1)
    if [[ "$sum" != "$crate_sha256" ]]; then
        echo "unicorn.sh: $1: SHA-256 $sum, not crates.io's $crate_sha256" >&2
        exit 1
    fi
    tar -xzf "$1" -C "$2"
    # cargo's own extraction marker and lock file are not the crate's.
    rm -f "$2/$crate_name/.cargo-ok"
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

# source ARG: an unpacked copy of the crate (ARG: a .crate, a directory,
# or nothing for the registry's .crate) in $work/t.
source_tree() {
    if [[ -d "${1:-}" ]]; then
        cp -a "$1" "$work/t"
    else
        local c="${1:-}"
        [[ -n "$c" ]] || c=$(find_crate)
        unpack "$c" "$work"
        mv "$work/$crate_name" "$work/t"
    fi
}

case "${1:-}" in
check)
    source_tree "${2:-}"
    if ! diff -u "$manifest" <(manifest_of "$work/t") > "$work/diff"; then
        echo "unicorn.sh: ${2:-the crate} is not the published $crate_name:" >&2
        cat "$work/diff" >&2
        exit 1
    fi
    n=0
    for p in "$patches"/*.patch; do
        if ! (cd "$work/t" && git apply -p1 "$p" 2> "$work/err"); then
            echo "unicorn.sh: $(basename "$p") does not apply:" >&2
            cat "$work/err" >&2
            exit 1
        fi
        n=$((n + 1))
    done
    echo "unicorn.sh: $crate_name as published, and $n patches apply to it"
    ;;
tree)
    if [[ $# -eq 3 ]]; then crate=$2; dest=$3; else crate=$(find_crate); dest=${2:?usage: vendor/unicorn.sh tree [CRATE] DIR}; fi
    [[ ! -e "$dest" ]] || { echo "unicorn.sh: $dest exists" >&2; exit 1; }
    unpack "$crate" "$work"
    mv "$work/$crate_name" "$dest"
    (cd "$dest" && git init -q && git add -A && git -c user.name=toolhelp16 -c user.email=dev@toolhelp16 commit -qm "$crate_name as published" \
        && for p in "$patches"/*.patch; do git -c user.name=toolhelp16 -c user.email=dev@toolhelp16 am -q "$p"; done)
    echo "unicorn.sh: $dest: $crate_name, and a commit for each patch"
    ;;
manifest)
    source_tree "${2:-}"
    manifest_of "$work/t" > "$manifest"
    echo "unicorn.sh: $manifest written"
    ;;
*)
    echo "usage: vendor/unicorn.sh check [CRATE|DIR] | tree [CRATE] DIR | manifest [CRATE]" >&2
    exit 2
    ;;
esac
