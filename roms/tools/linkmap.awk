# linkmap.awk -- turn NASM's map of an NE program built with inc/ne.inc
# into a map in Microsoft LINK's segmented format (what LINK /MAP wrote for
# a Windows program), so that toolhelp16 names every function of the roms.
# Part of toolhelp16 (GPL-2.0-or-later).  Used by build.sh:
#     awk -v module=DEMO -f tools/linkmap.awk NASM.map > demo.map
#
# Each NE segment is a NASM section ne_segN (vstart=0): the symbols of
# section ne_segN are the publics of segment N, at their virtual offsets.
# A segment's length is __ne_segN_len, its class from __ne_segN_flags (bit
# 0: data).  Internal names (__ne..., ..@...) and local labels (x.y) are
# not publics.

function hex4(v) { return sprintf("%04X", v) }
function num(s) { return strtonum_hex(s) }
function strtonum_hex(s,   i, c, v, d) {
    v = 0
    s = toupper(s)
    for (i = 1; i <= length(s); i++) {
        c = substr(s, i, 1)
        d = index("0123456789ABCDEF", c) - 1
        if (d < 0) return v
        v = v * 16 + d
    }
    return v
}
# Insertion sort of keys[1..n] (small lists).
function sort_keys(keys, n,   i, j, t) {
    for (i = 2; i <= n; i++) {
        t = keys[i]
        for (j = i - 1; j >= 1 && keys[j] > t; j--) keys[j + 1] = keys[j]
        keys[j + 1] = t
    }
}

/^---- Section / {
    section = $3
    seg = 0
    if (section ~ /^ne_seg[0-9]+$/) seg = substr(section, 7) + 0
    next
}
/^---- No Section/ { section = "none"; seg = 0; next }

section == "none" && NF == 2 && $2 ~ /^__ne_seg[0-9]+_(len|flags)$/ {
    name = $2
    n = name
    sub(/^__ne_seg/, "", n)
    sub(/_.*$/, "", n)
    n = n + 0
    if (name ~ /_len$/) len[n] = num($1)
    else flags[n] = num($1)
    if (n > nsegs) nsegs = n
    next
}

seg > 0 && NF == 3 && $1 ~ /^[0-9A-Fa-f]+$/ && $2 ~ /^[0-9A-Fa-f]+$/ {
    name = $3
    if (name ~ /^__ne/ || name ~ /^\.\.@/ || name ~ /\./) next
    npub++
    pub_seg[npub] = seg
    pub_off[npub] = num($2)
    pub_name[npub] = name
    next
}

END {
    printf "\n"
    if (module != "") printf " %s\n\n", module
    printf " Start     Length     Name                   Class\n"
    for (n = 1; n <= nsegs; n++) {
        data = (flags[n] % 2) == 1
        printf " %s:0000 %05XH     %-22s %s\n", hex4(n), len[n], \
            sprintf("SEG%d_%s", n, data ? "DATA" : "TEXT"), data ? "DATA" : "CODE"
    }
    printf "\n  Address         Publics by Name\n\n"
    for (i = 1; i <= npub; i++) byname[i] = pub_name[i] SUBSEP hex4(pub_seg[i]) ":" hex4(pub_off[i])
    sort_keys(byname, npub)
    for (i = 1; i <= npub; i++) {
        split(byname[i], f, SUBSEP)
        printf " %s       %s\n", f[2], f[1]
    }
    printf "\n  Address         Publics by Value\n\n"
    for (i = 1; i <= npub; i++) byvalue[i] = hex4(pub_seg[i]) ":" hex4(pub_off[i]) SUBSEP pub_name[i]
    sort_keys(byvalue, npub)
    for (i = 1; i <= npub; i++) {
        split(byvalue[i], f, SUBSEP)
        printf " %s       %s\n", f[1], f[2]
    }
}
