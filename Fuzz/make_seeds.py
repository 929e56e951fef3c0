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
OUTDIR/loader: loader audit channels (LoaderLaunch.parse's input, framed as
the loader-audit target reads it: datagrams separated by NUL bytes, each
"<kernel stamp> <bytes>"): a launch of /bin/ls captured live with
liblaunchprof-audit.so built from Sources/Benchmark/CLaunchProfAudit/audit.c (when cc
can build it), one captured the same way and kept below, and truncated,
reordered and garbage variants of it.
The seeds are generated, not committed, so the repository holds no binaries.
"""
import array
import os
import random
import socket
import struct
import subprocess
import sys
import tempfile

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


# A launch of /bin/ls (Ubuntu 24.04, x86_64) as the audit library reported it:
# (kernel stamp, datagram). Captured with capture_loader_launch.
CAPTURED_LS = [
    (1795609637226319861, b"LPA1\nV 11802557962481 1795609637226083068\nF 3\nO 11802557979927 \n"
     b"O 11802557980207 /lib64/ld-linux-x86-64.so.2\nO 11802557981489 linux-vdso.so.1\n"
     b"S 11802557983041 libselinux.so.1\nO 11802558024453 /lib/x86_64-linux-gnu/libselinux.so.1\n"
     b"S 11802558025354 libc.so.6\nO 11802558061608 /lib/x86_64-linux-gnu/libc.so.6\n"
     b"S 11802558062590 libpcre2-8.so.0\nO 11802558088198 /lib/x86_64-linux-gnu/libpcre2-8.so.0\n"
     b"C 11802558196319 1795609637226316826\n"),
    (1795609637226330487, b"      3980:\t\n      3980:\tcalling init: /lib64/ld-linux-x86-64.so.2\n      3980:\t\n"),
    (1795609637226332099, b"      3980:\t\n      3980:\tcalling init: /lib/x86_64-linux-gnu/libc.so.6\n      3980:\t\n"),
    (1795609637226337948, b"      3980:\t\n      3980:\tcalling init: /lib/x86_64-linux-gnu/libpcre2-8.so.0\n      3980:\t\n"),
    (1795609637226342244, b"      3980:\t\n      3980:\tcalling init: /lib/x86_64-linux-gnu/libselinux.so.1\n      3980:\t\n"),
    (1795609637226399289, b"      3980:\t\n      3980:\tinitialize program: /bin/ls\n      3980:\t\n"),
    (1795609637226401483, b"LPA1\nP 11802558279974 1795609637226400481\n"),
]


def capture_loader_launch(program, audit_source, include):
    """One real launch of `program` with liblaunchprof-audit.so built from
    `audit_source`, received as LoaderChannel does (the channel handed over on
    the socket, each datagram with its SCM_TIMESTAMPNS stamp): a list of
    (stamp, bytes), or None when the library cannot be built or sent nothing."""
    with tempfile.TemporaryDirectory(prefix="launchprof-seeds-") as tmp:
        library = os.path.join(tmp, "liblaunchprof-audit.so")
        try:
            built = subprocess.run(["cc", "-O1", "-shared", "-fPIC", "-I", include, audit_source, "-o", library],
                                   capture_output=True, timeout=120)
        except (OSError, subprocess.TimeoutExpired):
            return None
        if built.returncode != 0:
            return None
        path = os.path.join(tmp, "audit.sock")
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        listener.bind(path)
        listener.setblocking(False)
        env = dict(os.environ, LD_AUDIT=library, LD_DEBUG="files", LD_DEBUG_OUTPUT=os.path.join(tmp, "ld"),
                   LAUNCHPROF_AUDIT_SOCKET=path)
        try:
            child = subprocess.Popen([program], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        except OSError:
            listener.close()
            return None
        try:
            child.wait(timeout=30)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        channel = None
        while True:
            try:
                text, ancillary, _, _ = listener.recvmsg(64, socket.CMSG_SPACE(4 * 8))
            except BlockingIOError:
                break
            fds = [fd for level, kind, data in ancillary if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS
                   for fd in array.array("i", data[: len(data) - len(data) % 4])]
            for fd in fds[1:]:
                os.close(fd)
            if fds and text.split() == [b"LPA1", str(child.pid).encode()]:
                if channel is not None:
                    channel.close()
                channel = socket.socket(fileno=fds[0])
            elif fds:
                os.close(fds[0])
        listener.close()
        if channel is None:
            return None
        channel.setblocking(False)
        datagrams = []
        while True:
            try:
                data, ancillary, _, _ = channel.recvmsg(1 << 20, socket.CMSG_SPACE(16))
            except BlockingIOError:
                break
            stamp = 0
            for level, kind, payload in ancillary:
                if level == socket.SOL_SOCKET and kind == 35 and len(payload) >= 16:  # SCM_TIMESTAMPNS
                    seconds, nanoseconds = struct.unpack("<qq", payload[:16])
                    stamp = seconds * 1_000_000_000 + nanoseconds
            datagrams.append((stamp, data))
        channel.close()
        return datagrams or None


def loader_channel(datagrams):
    """The loader-audit target's framing: NUL between datagrams, each "<stamp> <bytes>"."""
    return b"\0".join(b"%d %s" % (stamp, data) for stamp, data in datagrams)


def loader_seeds():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    live = capture_loader_launch("/bin/ls", os.path.join(root, "Sources/Benchmark/CLaunchProfAudit/audit.c"),
                                 os.path.join(root, "Sources/Shared/LaunchProfFormat/include"))
    real = CAPTURED_LS
    whole = loader_channel(real)
    records = real[0][1].split(b"\n")
    rng = random.Random(28)
    seeds = {
        "captured-ls": whole,
        "truncated-half": whole[: len(whole) // 2],
        "truncated-third": whole[: len(whole) // 3],
        "no-preinit": loader_channel(real[:-1]),
        "records-only": loader_channel([real[0], real[-1]]),
        "unstamped-lines": loader_channel([real[0]] + [(0, data) for _, data in real[1:-1]] + [real[-1]]),
        "reversed-lines": loader_channel([real[0]] + real[-2:0:-1] + [real[-1]]),
        "reversed-records": loader_channel([(real[0][0], b"\n".join([records[0]] + records[-2:0:-1]) + b"\n")] + real[1:]),
        "overflow": loader_channel([(real[0][0], real[0][1] + b"X overflow\n")] + real[1:]),
        "long-names": loader_channel([(real[0][0], real[0][1].replace(b"libc.so.6\n", "libc-\u00e9\u0301.so".encode() * 400 + b"\n"))]
                                     + real[1:]),
        "garbage": bytes(rng.randrange(256) for _ in range(512)),
        "garbage-records": loader_channel([(1, b"LPA1\n" + bytes(rng.choice(b"VSOCPFX 0123456789\n/") for _ in range(400)))]),
    }
    if live:
        seeds["live-ls"] = loader_channel(live)
    return seeds


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
    for kind, seeds in [("trace", traces), ("elf", {"minimal.elf": elf()}), ("schedule", text), ("state", states()),
                       ("loader", loader_seeds())]:
        os.makedirs(os.path.join(outdir, kind), exist_ok=True)
        for filename, data in seeds.items():
            with open(os.path.join(outdir, kind, filename), "wb") as f:
                f.write(data)


if __name__ == "__main__":
    main(sys.argv[1])
