#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpus (small, valid inputs) to OUTDIR.

    make_seeds.py OUTDIR

OUTDIR/trace: trace files (format version 1, docs/trace-format.md) with
intervals, milestones, threads, and one with samples and modules.
OUTDIR/schedule: background task schedules (BackgroundSchedule's text
format), with every key, claims, and a line of each kind that is discarded.
OUTDIR/state: StateStore state files (format version 1, StateFile.swift),
quick and complete, with and without an app version and a payload.
OUTDIR/elf: a minimal 64-bit ELF with PT_INTERP, PT_LOAD, PT_DYNAMIC
(DT_NEEDED, DT_STRTAB, DT_RUNPATH, DT_RPATH), section headers, a symbol
table, a GNU build-id note and .debug_line, for both ELF targets.
The seeds are generated, not committed, so the repository holds no binaries.
"""
import os
import struct
import sys

FNV_OFFSET, FNV_PRIME = 0xCBF29CE484222325, 0x100000001B3


def fnv1a(data):
    h = FNV_OFFSET
    for b in data:
        h = ((h ^ b) * FNV_PRIME) & 0xFFFFFFFFFFFFFFFF
    return h


def section(tag, payload):
    return struct.pack("<IIQ", tag, 0, len(payload)) + payload


def trace(events, threads, samples=False):
    strings = ["app", "launch"]

    def intern(s):
        if s not in strings:
            strings.append(s)
        return strings.index(s)

    names = [intern(e[2]) for e in events]
    thread_rows = [(tid, intern(name)) for tid, name in threads]
    header = b"LPTRACE\0" + struct.pack("<IIII", 1, 96, 4242, 0)
    header += struct.pack("<QQQQQ", 100, 200, 300, 900, 1000)
    header += struct.pack("<QQQQ", 64, len(events), 0, 0)
    body = b"".join(struct.pack("<I", len(s.encode())) + s.encode() for s in strings)
    out = header + section(1, struct.pack("<I", len(strings)) + body)
    out += section(2, struct.pack("<III", 1, 0, 1))
    out += section(3, struct.pack("<I", len(thread_rows)) + b"".join(struct.pack("<II", *r) for r in thread_rows))
    rows = b"".join(
        struct.pack("<QQqIIBBHI", ts, ident, 7, name, tid, kind, 1 if kind == 4 else 0, 0, 0)
        for (ts, kind, _, ident, tid), name in zip(events, names))
    out += section(4, struct.pack("<Q", len(events)) + rows)
    if samples:
        frames = [0x401010, 0x402020]
        payload = struct.pack("<IIIIQQQQQII", 1000, 64, 0, 4, 150, 800, 2, 0, 0, 1, 0)
        payload += struct.pack("<I", 4242) + b"main".ljust(16, b"\0")
        for ts in (400, 500):
            payload += struct.pack("<QIHHII", ts, 4242, len(frames), 0, 900, 1)
            payload += b"".join(struct.pack("<Q", f) for f in frames)
        out += section(5, payload)
        path = b"/nonexistent/app"
        modules = struct.pack("<I", 1) + struct.pack("<QQQII", 0x400000, 0x400000, 0x500000, len(path), 4) + path + b"\x01\x02\x03\x04"
        out += section(6, modules)
    return out + section(0xFFFFFFFF, struct.pack("<Q", fnv1a(out)))


def elf():
    interp = b"/lib64/ld-linux-x86-64.so.2\0"
    dynstr = b"\0libc.so.6\0libm.so.6\0$ORIGIN/../lib\0/opt/lib\0"
    strtab = b"\0main\0helper\0"
    shstr = b"\0.interp\0.dynstr\0.dynamic\0.symtab\0.strtab\0.note.gnu.build-id\0.debug_line\0.shstrtab\0"
    note = struct.pack("<III", 4, 8, 3) + b"GNU\0" + bytes(range(1, 9))
    debug_line = b"\x01\x02\x03\x04"
    phnum, base = 3, 0x400000
    layout = 64 + 56 * phnum
    off_interp = layout
    off_dynstr = off_interp + len(interp)
    off_dynamic = (off_dynstr + len(dynstr) + 7) & ~7
    dynamic = b"".join(struct.pack("<qQ", t, v) for t, v in [
        (1, 1), (1, 11), (5, base + off_dynstr), (29, 21), (15, 36), (0, 0)])
    off_symtab = off_dynamic + len(dynamic)
    symtab = bytes(24)
    symtab += struct.pack("<IBBHQQ", 1, 0x12, 0, 1, base + 0x100, 0x20)
    symtab += struct.pack("<IBBHQQ", 6, 0x12, 0, 1, base + 0x120, 0)
    off_strtab = off_symtab + len(symtab)
    off_note = (off_strtab + len(strtab) + 3) & ~3
    off_debug = off_note + len(note)
    off_shstr = off_debug + len(debug_line)
    off_sh = (off_shstr + len(shstr) + 7) & ~7
    end = off_sh + 64 * 9

    def name(n):
        return shstr.index(n.encode() + b"\0")

    sections = [bytes(64)]
    for sname, stype, off, size, link, entsize in [
            (".interp", 1, off_interp, len(interp), 0, 0),
            (".dynstr", 3, off_dynstr, len(dynstr), 0, 0),
            (".dynamic", 6, off_dynamic, len(dynamic), 2, 16),
            (".symtab", 2, off_symtab, len(symtab), 5, 24),
            (".strtab", 3, off_strtab, len(strtab), 0, 0),
            (".note.gnu.build-id", 7, off_note, len(note), 0, 0),
            (".debug_line", 1, off_debug, len(debug_line), 0, 0),
            (".shstrtab", 3, off_shstr, len(shstr), 0, 0)]:
        sections.append(struct.pack("<IIQQQQIIQQ", name(sname), stype, 2, base + off, off, size, link, 0, 8, entsize))
    ident = b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8)
    header = ident + struct.pack("<HHIQQQIHHHHHH", 3, 62, 1, base + 0x100, 64, off_sh, 0, 64, 56, phnum, 64, 9, 8)
    phdrs = struct.pack("<IIQQQQQQ", 3, 4, off_interp, base + off_interp, base + off_interp, len(interp), len(interp), 1)
    phdrs += struct.pack("<IIQQQQQQ", 1, 5, 0, base, base, end, end, 0x1000)
    phdrs += struct.pack("<IIQQQQQQ", 2, 6, off_dynamic, base + off_dynamic, base + off_dynamic, len(dynamic), len(dynamic), 8)
    image = bytearray(end)
    for off, blob in [(0, header), (64, phdrs), (off_interp, interp), (off_dynstr, dynstr), (off_dynamic, dynamic),
                      (off_symtab, symtab), (off_strtab, strtab), (off_note, note), (off_debug, debug_line),
                      (off_shstr, shstr), (off_sh, b"".join(sections))]:
        image[off:off + len(blob)] = blob
    return bytes(image)


def schedules():
    head = "launchprof-background-tasks 1\n"
    return {
        "empty.schedule": head,
        "two.schedule": head
        + "task com.example.refresh next=1764000900000 last=1764000000000 outcome=succeeded failures=0\n"
        + "task com.example.cleanup next=- last=- outcome=- failures=0 claim=1@1764000000100\n",
        "failed.schedule": head + "task a.b next=0 last=253402300799999 outcome=failed failures=1000000 future=1\n",
        "discarded.schedule": head + "task a next=x\ntask b last=9223372036854775807\ntask c claim=0@5\nnot a task\n",
    }


def state_file(kind, clean, version, payload):
    version = version.encode()
    header = b"LPSTATE\0" + struct.pack("<IIQQBBHIQ", 1, 48, 1764000000000000000, len(payload), kind, clean, len(version), 4242, 0)
    body = header + version + payload
    return body + struct.pack("<Q", fnv1a(body))


def states():
    return {
        "complete.state": state_file(2, 1, "1.4", b"launches=2\nrequests=0\n"),
        "quick.state": state_file(1, 0, "", b""),
        "binary.state": state_file(2, 0, "2.0-beta", bytes(range(256))),
    }


def main(outdir):
    nested = [(10 + i, 1, "level%d" % i, 0, 1) for i in range(4)] + [(30 - i, 2, "level%d" % i, 0, 1) for i in range(3, -1, -1)]
    traces = {
        "nested.lptrace": trace(nested, [(1, "main")]),
        "mixed.lptrace": trace([(10, 1, "load", 5, 1), (12, 4, "config", 0, 1), (15, 2, "load", 5, 2),
                                (16, 2, "orphan", 0, 1), (20, 3, "tick", 0, 2), (25, 1, "open", 0, 2)],
                               [(1, "main"), (2, "worker")]),
        "sampled.lptrace": trace([(10, 4, "main", 0, 4242), (900, 5, "ready", 0, 4242)], [(4242, "app")], samples=True),
    }
    text = {name: data.encode() for name, data in schedules().items()}
    for kind, seeds in [("trace", traces), ("elf", {"minimal.elf": elf()}), ("schedule", text), ("state", states())]:
        os.makedirs(os.path.join(outdir, kind), exist_ok=True)
        for filename, data in seeds.items():
            with open(os.path.join(outdir, kind, filename), "wb") as f:
                f.write(data)


if __name__ == "__main__":
    main(sys.argv[1])
