#!/usr/bin/env python3
# walkcheck.py -- an independent cross-check of the roms/*.expect files.
# Part of toolhelp16 (GPL-2.0-or-later).
#
# A deliberately small 16-bit x86 interpreter (only the instructions the
# scenario programs use) plus the loaders (NE, .COM, boot sector) and the
# ToolHelp walk of toolhelp.md, written independently of the Rust code.
# For each .expect file it runs the program to the `at` location, walks the
# stack and compares the frames and the stop reason with the file.
#
#   python3 roms/tools/walkcheck.py [roms/NAME.expect ...]
#
# Not used by the test suite; a developer aid for writing expectations.

import os
import re
import struct
import sys

ROMS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

KERNEL_SEL = 0x00F7          # a pseudo code selector for KERNEL's entries
PSP_SEL = 0x2007             # protected-mode PSP selector (a data segment)
HINSTANCE = 0x100F + 8 * 10  # overwritten below (DGROUP selector)
COM_PSP = 0x1000             # real-mode PSP segment used for .COM files


class Stop(Exception):
    pass


class Machine:
    def __init__(self, real):
        self.mem = bytearray(0x200000)
        self.real = real
        self.desc = {}            # selector -> (base, limit, is_code)
        self.r = dict(ax=0, cx=0, dx=0, bx=0, sp=0, bp=0, si=0, di=0,
                      cs=0, ds=0, es=0, ss=0, ip=0)
        self.zf = False
        self.sf = False
        self.out = bytearray()
        self.halted = False
        self.exited = None

    # ---- addressing
    def base(self, sel):
        if self.real:
            return sel * 16
        if sel not in self.desc:
            raise Stop('bad selector %04X' % sel)
        return self.desc[sel][0]

    def lin(self, sel, off):
        return self.base(sel) + (off & 0xFFFF)

    def rb(self, sel, off):
        return self.mem[self.lin(sel, off)]

    def rw(self, sel, off):
        return self.rb(sel, off) | (self.rb(sel, off + 1) << 8)

    def wb(self, sel, off, v):
        self.mem[self.lin(sel, off)] = v & 0xFF

    def ww(self, sel, off, v):
        self.wb(sel, off, v)
        self.wb(sel, off + 1, v >> 8)

    def push(self, v):
        self.r['sp'] = (self.r['sp'] - 2) & 0xFFFF
        self.ww(self.r['ss'], self.r['sp'], v)

    def pop(self):
        v = self.rw(self.r['ss'], self.r['sp'])
        self.r['sp'] = (self.r['sp'] + 2) & 0xFFFF
        return v

    def fetch(self):
        v = self.rb(self.r['cs'], self.r['ip'])
        self.r['ip'] = (self.r['ip'] + 1) & 0xFFFF
        return v

    def fetchw(self):
        lo = self.fetch()
        return lo | (self.fetch() << 8)

    R16 = ['ax', 'cx', 'dx', 'bx', 'sp', 'bp', 'si', 'di']
    SREG = ['es', 'cs', 'ss', 'ds']

    def get8(self, i):
        v = self.r[self.R16[i & 3]]
        return (v >> 8) & 0xFF if i >= 4 else v & 0xFF

    def set8(self, i, v):
        n = self.R16[i & 3]
        if i >= 4:
            self.r[n] = (self.r[n] & 0x00FF) | ((v & 0xFF) << 8)
        else:
            self.r[n] = (self.r[n] & 0xFF00) | (v & 0xFF)

    def modrm(self, seg_override):
        m = self.fetch()
        mod, reg, rm = m >> 6, (m >> 3) & 7, m & 7
        if mod == 3:
            return reg, ('reg', rm)
        r = self.r
        bases = [r['bx'] + r['si'], r['bx'] + r['di'], r['bp'] + r['si'],
                 r['bp'] + r['di'], r['si'], r['di'], r['bp'], r['bx']]
        seg = 'ss' if rm in (2, 3, 6) else 'ds'
        if mod == 0 and rm == 6:
            ea = self.fetchw()
            seg = 'ds'
        else:
            ea = bases[rm]
            if mod == 1:
                d = self.fetch()
                ea += d - 256 if d >= 128 else d
            elif mod == 2:
                ea += self.fetchw()
        if seg_override:
            seg = seg_override
        return reg, ('mem', self.r[seg], ea & 0xFFFF)

    def rd16(self, op):
        return self.r[self.R16[op[1]]] if op[0] == 'reg' else self.rw(op[1], op[2])

    def wr16(self, op, v):
        v &= 0xFFFF
        if op[0] == 'reg':
            self.r[self.R16[op[1]]] = v
        else:
            self.ww(op[1], op[2], v)

    def rd8(self, op):
        return self.get8(op[1]) if op[0] == 'reg' else self.rb(op[1], op[2])

    def flags(self, v, bits=16):
        mask = (1 << bits) - 1
        self.zf = (v & mask) == 0
        self.sf = bool(v & (1 << (bits - 1)))

    def alu(self, kind, a, b, bits=16):
        mask = (1 << bits) - 1
        if kind == 'add':
            v = a + b
        elif kind == 'sub' or kind == 'cmp':
            v = a - b
        elif kind == 'or':
            v = a | b
        elif kind == 'and' or kind == 'test':
            v = a & b
        elif kind == 'xor':
            v = a ^ b
        else:
            raise Stop('alu ' + kind)
        self.flags(v, bits)
        return v & mask

    def far_transfer(self, sel, off):
        if sel == KERNEL_SEL and not self.real:
            self.kernel(off)
            return
        if not self.real:
            d = self.desc.get(sel)
            if d is None or not d[2]:
                raise Stop('far transfer to non-code %04X' % sel)
        self.r['cs'] = sel
        self.r['ip'] = off

    def kernel(self, ordinal):
        if ordinal != 91:
            raise Stop('KERNEL.%d not emulated' % ordinal)
        r = self.r
        ip = self.pop()
        cs = self.pop()
        sp = self.start_sp
        ds = r['ds']
        self.ww(ds, 0x0E, sp)
        self.ww(ds, 0x0C, sp)
        top = (sp - self.stack_size) & 0xFFFE
        self.ww(ds, 0x0A, top)
        r.update(ax=1, bx=0x81, cx=top, dx=1, si=0, di=self.hinstance,
                 es=PSP_SEL)
        r['cs'], r['ip'] = cs, ip

    def interrupt(self, n):
        r = self.r
        ah = r['ax'] >> 8
        if n == 0x21 and ah == 0x09:
            off = r['dx']
            while self.rb(r['ds'], off) != ord('$'):
                self.out.append(self.rb(r['ds'], off))
                off += 1
        elif n == 0x21 and ah == 0x4C:
            self.exited = r['ax'] & 0xFF
            raise Stop('exit')
        elif n == 0x10 and ah == 0x0E:
            self.out.append(r['ax'] & 0xFF)
        else:
            raise Stop('int %02X ah=%02X' % (n, ah))

    def step(self):
        r = self.r
        seg = None
        op = self.fetch()
        while op in (0x26, 0x2E, 0x36, 0x3E):
            seg = {0x26: 'es', 0x2E: 'cs', 0x36: 'ss', 0x3E: 'ds'}[op]
            op = self.fetch()
        if 0x50 <= op <= 0x57:
            self.push(r[self.R16[op - 0x50]])
        elif 0x58 <= op <= 0x5F:
            r[self.R16[op - 0x58]] = self.pop()
        elif op in (0x06, 0x0E, 0x16, 0x1E):
            self.push(r[self.SREG[op >> 3]])
        elif op in (0x07, 0x17, 0x1F):
            r[self.SREG[op >> 3]] = self.pop()
        elif 0x40 <= op <= 0x47:
            n = self.R16[op - 0x40]
            r[n] = (r[n] + 1) & 0xFFFF
            self.flags(r[n])
        elif 0x48 <= op <= 0x4F:
            n = self.R16[op - 0x48]
            r[n] = (r[n] - 1) & 0xFFFF
            self.flags(r[n])
        elif op == 0x68:
            self.push(self.fetchw())
        elif op == 0x6A:
            b = self.fetch()
            self.push((b - 256 if b >= 128 else b) & 0xFFFF)
        elif op == 0x89:
            reg, o = self.modrm(seg)
            self.wr16(o, r[self.R16[reg]])
        elif op == 0x8B:
            reg, o = self.modrm(seg)
            r[self.R16[reg]] = self.rd16(o)
        elif op == 0x8C:
            reg, o = self.modrm(seg)
            self.wr16(o, r[self.SREG[reg]])
        elif op == 0x8E:
            reg, o = self.modrm(seg)
            r[self.SREG[reg]] = self.rd16(o)
        elif op == 0x8D:
            reg, o = self.modrm(seg)
            r[self.R16[reg]] = o[2]
        elif 0xB0 <= op <= 0xB7:
            self.set8(op - 0xB0, self.fetch())
        elif 0xB8 <= op <= 0xBF:
            r[self.R16[op - 0xB8]] = self.fetchw()
        elif op == 0xC7:
            reg, o = self.modrm(seg)
            self.wr16(o, self.fetchw())
        elif op in (0x81, 0x83):
            reg, o = self.modrm(seg)
            if op == 0x81:
                imm = self.fetchw()
            else:
                b = self.fetch()
                imm = (b - 256 if b >= 128 else b) & 0xFFFF
            kind = {0: 'add', 1: 'or', 4: 'and', 5: 'sub', 6: 'xor', 7: 'cmp'}[reg]
            v = self.alu(kind, self.rd16(o), imm)
            if kind != 'cmp':
                self.wr16(o, v)
        elif op in (0x01, 0x03, 0x09, 0x0B, 0x29, 0x2B, 0x31, 0x33, 0x39, 0x3B, 0x85):
            reg, o = self.modrm(seg)
            kind = {0x01: 'add', 0x03: 'add', 0x09: 'or', 0x0B: 'or',
                    0x29: 'sub', 0x2B: 'sub', 0x31: 'xor', 0x33: 'xor',
                    0x39: 'cmp', 0x3B: 'cmp', 0x85: 'test'}[op]
            a, b = self.rd16(o), r[self.R16[reg]]
            if op in (0x03, 0x0B, 0x2B, 0x33, 0x3B):
                a, b = b, a
                v = self.alu(kind, a, b)
                if kind not in ('cmp', 'test'):
                    r[self.R16[reg]] = v
            else:
                v = self.alu(kind, a, b)
                if kind not in ('cmp', 'test'):
                    self.wr16(o, v)
        elif op in (0x08, 0x0A, 0x30, 0x32):
            reg, o = self.modrm(seg)
            kind = 'or' if op in (0x08, 0x0A) else 'xor'
            v = self.alu(kind, self.rd8(o), self.get8(reg), 8)
            if op in (0x0A, 0x32) or o[0] == 'reg':
                if op in (0x0A, 0x32):
                    self.set8(reg, v)
                else:
                    self.set8(o[1], v)
            else:
                self.wb(o[1], o[2], v)
        elif op == 0xA1:
            r['ax'] = self.rw(r[seg or 'ds'], self.fetchw())
        elif op == 0xA3:
            self.ww(r[seg or 'ds'], self.fetchw(), r['ax'])
        elif op == 0xAC:
            self.set8(0, self.rb(r[seg or 'ds'], r['si']))
            r['si'] = (r['si'] + 1) & 0xFFFF
        elif op in (0x74, 0x75, 0xEB):
            d = self.fetch()
            d = d - 256 if d >= 128 else d
            if op == 0xEB or (op == 0x74) == self.zf:
                r['ip'] = (r['ip'] + d) & 0xFFFF
        elif op == 0xE8:
            d = self.fetchw()
            self.push(r['ip'])
            r['ip'] = (r['ip'] + d) & 0xFFFF
        elif op == 0x9A:
            off = self.fetchw()
            sel = self.fetchw()
            self.push(r['cs'])
            self.push(r['ip'])
            self.far_transfer(sel, off)
        elif op == 0xFF:
            reg, o = self.modrm(seg)
            if reg == 3:
                off = self.rw(o[1], o[2])
                sel = self.rw(o[1], o[2] + 2)
                self.push(r['cs'])
                self.push(r['ip'])
                self.far_transfer(sel, off)
            elif reg == 6:
                self.push(self.rd16(o))
            else:
                raise Stop('FF /%d' % reg)
        elif op in (0xC3, 0xC2):
            n = self.fetchw() if op == 0xC2 else 0
            r['ip'] = self.pop()
            r['sp'] = (r['sp'] + n) & 0xFFFF
        elif op in (0xCB, 0xCA):
            n = self.fetchw() if op == 0xCA else 0
            ip = self.pop()
            cs = self.pop()
            r['sp'] = (r['sp'] + n) & 0xFFFF
            self.far_transfer(cs, ip)
        elif op == 0xCD:
            self.interrupt(self.fetch())
        elif op in (0x90, 0xFA):
            pass
        elif op == 0xF4:
            self.halted = True
            raise Stop('hlt')
        else:
            raise Stop('opcode %02X at %04X:%04X' % (op, r['cs'], r['ip'] - 1))

    # ---- the walk (toolhelp.md)
    def limit(self, sel):
        return 0xFFFF if self.real else self.desc[sel][1]

    def walk(self, cs, ip, bp):
        ss = self.r['ss']
        frames = [(cs, ip, bp, 'far')]
        ste = dict(cs=cs, ip=ip, bp=bp)
        if self.real:
            lo, hi = 0, 0x10000
        else:
            lo, hi = self.rw(ss, 0x0A), self.rw(ss, 0x0E)
        notes = []
        while True:
            si = ste['bp']
            if si + 6 > 0xFFFF:
                return frames, 'bp-wraps', notes
            if si + 6 > self.limit(ss):
                if si + 5 <= self.limit(ss):
                    notes.append('AMBIGUOUS: BP %04X reads up to %04X = limit' % (si, si + 5))
                return frames, 'beyond-limit', notes
            nxt = self.rw(ss, si)
            ip = self.rw(ss, si + 2)
            cand = self.rw(ss, si + 4)
            if nxt == 0:
                return frames, 'end-of-chain', notes
            if nxt <= si:
                return frames, 'not-climbing', notes
            if not (lo <= nxt < hi):
                return frames, 'out-of-bounds', notes
            if nxt & 1:
                far = True
            elif self.real:
                far = False
            else:
                d = self.desc.get(cand)
                if d is None and (cand & 3) == 3:
                    notes.append('RISK: candidate CS %04X at BP %04X+4 has RPL 3: '
                                 'it could be a code selector in another emulator'
                                 % (cand, si))
                far = (d is not None and d[2] and (cand & 3) == (ste['cs'] & 3)
                       and d[1] > ip)
            if far:
                ste.update(cs=cand, ip=ip, bp=nxt & ~1)
                frames.append((cand, ip, nxt & ~1, 'far'))
            else:
                ste.update(ip=ip, bp=nxt)
                frames.append((ste['cs'], ip, nxt, 'near'))


def load_ne(data):
    m = Machine(real=False)
    ne = struct.unpack_from('<I', data, 0x3C)[0]
    assert data[ne:ne + 2] == b'NE'
    (flags, autodata, heap, stack, ip, csn, sp, ssn, nseg, nmod) = \
        struct.unpack_from('<HHHHHHHHHH', data, ne + 0x0C)
    segtab = ne + struct.unpack_from('<H', data, ne + 0x22)[0]
    shift = struct.unpack_from('<H', data, ne + 0x32)[0]
    assert data[ne + 0x36] == 2 and flags == 0x0302
    sels = {}
    segs = []
    for i in range(nseg):
        off, ln, fl, mn = struct.unpack_from('<HHHH', data, segtab + 8 * i)
        sel = 0x1007 + 8 * i
        sels[i + 1] = sel
        segs.append((off << shift, ln or 0x10000, fl, mn or 0x10000))
    m.segnum = {v: k for k, v in sels.items()}
    for i, (foff, ln, fl, mn) in enumerate(segs):
        sel = sels[i + 1]
        size = max(ln, mn)
        limit = size - 1
        if i + 1 == autodata:
            top = size + heap + stack
            m.start_sp = min(top & ~1, 0xFFFE)
            m.stack_size = stack
            limit = ((top + 31) & ~31) - 1
        base = 0x20000 + 0x20000 * i
        m.mem[base:base + ln] = data[foff:foff + ln]
        m.desc[sel] = (base, limit, not (fl & 1))
        if fl & 0x100:
            p = foff + ln
            cnt = struct.unpack_from('<H', data, p)[0]
            for k in range(cnt):
                src, rfl, loc, w1, w2 = struct.unpack_from('<BBHHH', data, p + 2 + 8 * k)
                assert rfl in (0, 1), rfl
                if rfl == 1:
                    assert w1 == 1
                    tsel, toff = KERNEL_SEL, w2
                else:
                    tsel, toff = sels[w1 & 0xFF], w2
                while True:
                    nxt = m.rw(sel, loc)
                    if src == 3:
                        m.ww(sel, loc, toff)
                        m.ww(sel, loc + 2, tsel)
                    elif src == 2:
                        m.ww(sel, loc, tsel)
                    else:
                        raise Stop('fixup type %d' % src)
                    if nxt == 0xFFFF:
                        break
                    loc = nxt
    m.desc[PSP_SEL] = (0x1F0000, 0xFF, False)
    dsel = sels[autodata]
    m.hinstance = dsel
    m.r.update(ax=0, bx=stack, cx=heap, di=dsel, si=0, bp=0, es=PSP_SEL,
               ds=dsel, ss=dsel, sp=m.start_sp, cs=sels[csn], ip=ip)
    m.tokfmt = lambda sel, off: 's%d:%04X' % (m.segnum[sel], off)
    return m


def load_com(data):
    m = Machine(real=True)
    base = COM_PSP * 16
    m.mem[base + 0x100:base + 0x100 + len(data)] = data
    m.r.update(cs=COM_PSP, ds=COM_PSP, es=COM_PSP, ss=COM_PSP, ip=0x100,
               sp=0xFFFE, bp=0)
    m.ww(COM_PSP, 0xFFFE, 0)
    m.tokfmt = lambda sel, off: ('psp:%04X' % off) if sel == COM_PSP else '%04X:%04X' % (sel, off)
    return m


def load_mz(data):
    (cblp, cp, crlc, cparhdr, minalloc, maxalloc, ss, sp, csum, ip, cs,
     lfarlc) = struct.unpack_from('<12H', data, 2)
    assert data[:2] == b'MZ'
    size = cp * 512 - ((512 - cblp) if cblp else 0)
    assert size == len(data), (size, len(data))
    m = Machine(real=True)
    load = COM_PSP + 0x10
    image = data[cparhdr * 16:size]
    m.mem[load * 16:load * 16 + len(image)] = image
    for k in range(crlc):
        off, seg = struct.unpack_from('<HH', data, lfarlc + 4 * k)
        m.ww(load + seg, off, m.rw(load + seg, off) + load)
    m.r.update(cs=load + cs, ip=ip, ss=load + ss, sp=sp, ds=COM_PSP,
               es=COM_PSP, bp=0)
    m.tokfmt = lambda sel, off: 'load+%04X:%04X' % (sel - load, off)
    m.load = load
    return m


def load_boot(data):
    assert len(data) == 512 and data[510:] == b'\x55\xAA'
    m = Machine(real=True)
    m.mem[0x7C00:0x7E00] = data
    m.r.update(cs=0, ip=0x7C00, ss=0, sp=0x7C00, bp=0, dx=0x80)
    m.tokfmt = lambda sel, off: '%04X:%04X' % (sel, off)
    return m


def parse_token(m, tok):
    mo = re.fullmatch(r's(\d+):([0-9A-Fa-f]+)', tok)
    if mo:
        inv = {v: k for k, v in m.segnum.items()}
        return inv[int(mo.group(1))], int(mo.group(2), 16)
    mo = re.fullmatch(r'psp:([0-9A-Fa-f]+)', tok)
    if mo:
        return COM_PSP, int(mo.group(1), 16)
    mo = re.fullmatch(r'load\+([0-9A-Fa-f]+):([0-9A-Fa-f]+)', tok)
    if mo:
        return m.load + int(mo.group(1), 16), int(mo.group(2), 16)
    mo = re.fullmatch(r'([0-9A-Fa-f]{4}):([0-9A-Fa-f]+)', tok)
    if mo:
        return int(mo.group(1), 16), int(mo.group(2), 16)
    raise ValueError(tok)


def check(expect_path):
    lines = []
    for raw in open(expect_path):
        t = raw.split('#', 1)[0].strip()
        if t:
            lines.append(t)
    exp = {'frames': [], 'stop': None, 'end': False}
    for t in lines:
        w = t.split()
        if w[0] == 'file':
            exp['file'] = w[1]
        elif w[0] == 'at':
            exp['at'] = w[1]
        elif w[0] == 'frame':
            exp['frames'].append(' '.join(w[1:]))
        elif w[0] == 'end':
            exp['end'] = True
        elif w[0] == 'stop':
            exp['stop'] = w[1]
        else:
            raise ValueError(t)
    data = open(os.path.join(ROMS, exp['file']), 'rb').read()
    if exp['file'].endswith('.exe') and struct.unpack_from('<H', data, 0x18)[0] != 0x40:
        m = load_mz(data)
    elif exp['file'].endswith('.exe'):
        m = load_ne(data)
    elif exp['file'].endswith('.com'):
        m = load_com(data)
    else:
        m = load_boot(data)
    scs, sip = parse_token(m, exp['at'])
    steps = 0
    while not (m.r['cs'] == scs and m.r['ip'] == sip):
        m.step()
        steps += 1
        if steps > 1000000:
            raise Stop('runaway')
    frames, why, notes = m.walk(scs, sip, m.r['bp'])
    got = ['%s bp=%04X %s' % (m.tokfmt(c, i), b, k) for c, i, b, k in frames]
    ok = got == exp['frames'] and exp['end'] and (exp['stop'] in (None, why))
    # run on to the end: the program must finish cleanly
    try:
        while True:
            m.step()
            steps += 1
            if steps > 2000000:
                raise Stop('runaway')
    except Stop as e:
        fin = str(e)
    clean = fin == 'hlt' or (fin == 'exit' and m.exited == 0)
    name = os.path.basename(expect_path)
    print('%s %s: %d frames, %s; program ends: %s%s; output %r' % (
        'OK  ' if ok and clean else 'FAIL', name, len(got), why, fin,
        '' if m.exited is None else ' %d' % m.exited, bytes(m.out)))
    for n in notes:
        print('     ' + n)
    if not ok:
        for g in got:
            print('     got  frame ' + g)
        print('     got  stop ' + why)
        for e in exp['frames']:
            print('     want frame ' + e)
    return ok and clean


def main():
    paths = sys.argv[1:] or sorted(
        os.path.join(ROMS, f) for f in os.listdir(ROMS) if f.endswith('.expect'))
    bad = 0
    for p in paths:
        try:
            if not check(p):
                bad += 1
        except Stop as e:
            print('FAIL %s: %s' % (os.path.basename(p), e))
            bad += 1
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
