import Foundation
import Glibc
import LaunchBenchmark
import LaunchProfTestSupport
import Testing

/// Hostile X servers and windows against `--ready window` and `--ready
/// frame` (issue 37, items 1–6): a server that accepts and never answers,
/// one that stops answering mid-run, Xvfb resetting under xvfb-run, windows
/// wider than the screen, patterns that backtrack, and windows of another
/// process. Each with real processes and X servers; every wait is on a
/// scripted event (a line a fake server writes, a file), never on a tuned
/// delay.
@Suite("hostile X servers and windows", .serialized)
struct HostileWindowTests {
    /// A fake X server on a free display number (an abstract socket, as X
    /// servers have on Linux), writing what happens to LOG: its display
    /// number first, then "accepted" for each connection. `silent`: reads
    /// and never answers. `proxy SOCKET`: relays to a real server, and when
    /// a client connects, every earlier client's requests stop reaching the
    /// server ("dropped" is logged for each): from that client's side the
    /// server froze, while its events still arrive.
    static let fakeServer = """
        import select, socket, sys
        mode, log = sys.argv[1], open(sys.argv[2], 'a', buffering=1)
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        for number in range(600, 1000):
            try:
                listener.bind('\\0/tmp/.X11-unix/X%d' % number)
                break
            except OSError:
                continue
        listener.listen(16)
        log.write('%d\\n' % number)
        peers, clients, frozen = {}, [], set()
        while True:
            readable, _, _ = select.select([listener] + list(peers), [], [])
            for s in readable:
                if s is listener:
                    client, _ = listener.accept()
                    frozen.update(clients)
                    clients.append(client)
                    if mode == 'silent':
                        peers[client] = None
                    else:
                        upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                        upstream.connect(sys.argv[3])
                        peers[client], peers[upstream] = upstream, client
                    log.write('accepted\\n')
                    continue
                if s not in peers:
                    continue  # closed with its peer earlier in this round
                try:
                    data = s.recv(65536)
                except OSError:
                    data = b''
                if not data:
                    for end in (s, peers.get(s)):
                        if end is not None:
                            peers.pop(end, None)
                            end.close()
                    continue
                if peers.get(s) is None:
                    continue
                if s in frozen:
                    log.write('dropped\\n')
                    continue
                try:
                    peers[s].sendall(data)
                except OSError:
                    pass  # its peer left: the end of file comes next
        """

    /// Maps a window titled argv[1] (default "window") of argv[2] pixels
    /// wide, drawn at once; with argv[3], first waits for a byte on that FIFO
    /// (a running instance asked to open a window for another program).
    static let windowProgram = """
        #include <fcntl.h>
        #include <stdlib.h>
        #include <string.h>
        #include <unistd.h>
        #include <xcb/xcb.h>
        int main(int argc, char **argv) {
            const char *title = argc > 1 ? argv[1] : "window";
            int width = argc > 2 ? atoi(argv[2]) : 300;
            if (argc > 3) { char byte; int fd = open(argv[3], O_RDONLY); if (fd < 0 || read(fd, &byte, 1) != 1) return 3; }
            xcb_connection_t *c = xcb_connect(NULL, NULL);
            if (xcb_connection_has_error(c)) return 2;
            xcb_screen_t *s = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
            xcb_window_t w = xcb_generate_id(c);
            uint32_t values[] = {s->white_pixel};
            xcb_create_window(c, XCB_COPY_FROM_PARENT, w, s->root, 0, 0, width, 200, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT,
                              s->root_visual, XCB_CW_BACK_PIXEL, values);
            xcb_change_property(c, XCB_PROP_MODE_REPLACE, w, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 8, strlen(title), title);
            xcb_map_window(c, w);
            xcb_gcontext_t g = xcb_generate_id(c);
            uint32_t foreground[] = {s->black_pixel};
            xcb_create_gc(c, g, w, XCB_GC_FOREGROUND, foreground);
            xcb_rectangle_t r = {20, 20, 100, 50};
            xcb_poly_fill_rectangle(c, w, g, 1, &r);
            xcb_flush(c);
            pause();
        }
        """

    /// A fake X server of `mode` (with its extra arguments), its log and
    /// display; stopped by `stop()`.
    final class FakeServer {
        let process = Process()
        let log: String
        private(set) var display = ""

        init(_ scratch: ScratchDirectory, mode: [String]) throws {
            let script = scratch.file("fake-x.py")
            try HostileWindowTests.fakeServer.write(toFile: script, atomically: true, encoding: .utf8)
            log = scratch.file("fake-x-\(mode[0]).log")
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = [script, mode[0], log] + mode.dropFirst()
            try process.run()
            try #require(wait { $0.first?.allSatisfy(\.isNumber) == true }, "the fake X server did not start")
            display = ":" + (try lines().first ?? "")
        }

        func lines() throws -> [String] {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }

        /// Waits (up to 60 s, polling) until the log satisfies `condition`.
        func wait(_ condition: ([String]) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                if condition((try? lines()) ?? []) { return true }
                usleep(10_000)
            }
            return false
        }

        /// SIGKILL: a process started from a Dispatch thread inherits its
        /// signal mask, where SIGTERM is blocked.
        func stop() {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// launchprof started in the background, its standard error to `log`
    /// (for the message of a failed expectation).
    private func startLaunchprof(_ arguments: [String], log: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Products.path("launchprof"))
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        FileManager.default.createFile(atPath: log, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: log)
        try process.run()
        return process
    }

    /// Sends `signal` and returns how long launchprof took to exit, and its status.
    private func stop(_ process: Process, with signal: Int32) -> (seconds: Double, status: Int32) {
        let sent = Date()
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        return (Date().timeIntervalSince(sent), process.terminationStatus)
    }

    // MARK: - 1. A server that accepts and never answers

    @Test("a server that accepts the connection and never answers: the run fails at --timeout; SIGINT and SIGTERM end it at once")
    func silentServer() throws {
        let scratch = try ScratchDirectory()
        let server = try FakeServer(scratch, mode: ["silent"])
        defer { server.stop() }
        let started = Date()
        let run = try launchprof(
            ["run", "--display", server.display, "--ready", "window", "--timeout", "2", "-r", "1", "-w", "0", "--", "/bin/true"],
            timeout: 120)
        let took = Date().timeIntervalSince(started)
        #expect(run.status == 3, "\(run.standardError)")
        #expect(run.standardError.contains("accepted the connection but did not complete the X handshake"), "\(run.standardError)")
        #expect(took >= 2, "it waits for the timeout: \(took) s")
        for signal in [SIGINT, SIGTERM] {
            let accepted = try server.lines().filter { $0 == "accepted" }.count
            let log = scratch.file("launchprof-\(signal).log")
            let process = try startLaunchprof(
                ["run", "--display", server.display, "--ready", "window", "--timeout", "600", "-r", "1", "-w", "0", "--", "/bin/true"],
                log: log)
            try #require(
                server.wait { $0.filter { $0 == "accepted" }.count > accepted },
                "launchprof never connected: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
            let stopped = stop(process, with: signal)
            #expect(stopped.status == 130, "signal \(signal)")
            #expect(stopped.seconds < 10, "launchprof took \(stopped.seconds) s to stop after signal \(signal)")
        }
    }

    // MARK: - 2. A server that stops answering mid-run

    @Test(
        "a server that stops answering mid-run (a window's owner asked, never answered): the run fails at --timeout, named; SIGINT ends it at once"
    )
    func serverFreezesMidRun() throws {
        let scratch = try ScratchDirectory()
        let window = try scratch.compile("window", Self.windowProgram, flags: ["-lxcb"])
        let xvfb = try VirtualDisplay()
        defer { xvfb.stop() }
        let upstream = "/tmp/.X11-unix/X" + xvfb.name.dropFirst()
        let proxy = try FakeServer(scratch, mode: ["proxy", upstream])
        defer { proxy.stop() }
        // launchprof connects first; the program's connection freezes it:
        // the question about the program's window never reaches the server.
        let run = try launchprof(
            ["run", "--display", proxy.display, "--ready", "window", "--timeout", "3", "-r", "1", "-w", "0", "--", window],
            timeout: 120)
        #expect(run.status == 3, "\(run.standardError)")
        #expect(run.standardError.contains("timed out before it was ready"), "\(run.standardError)")
        #expect(run.standardError.contains("has not answered"), "\(run.standardError)")
        #expect(try proxy.lines().contains("dropped"), "launchprof asked the frozen server")

        let dropped = try proxy.lines().filter { $0 == "dropped" }.count
        let log = scratch.file("launchprof.log")
        let process = try startLaunchprof(
            ["run", "--display", proxy.display, "--ready", "window", "--timeout", "600", "-r", "1", "-w", "0", "--", window], log: log)
        try #require(
            proxy.wait { $0.filter { $0 == "dropped" }.count > dropped },
            "launchprof never asked about the window: \((try? proxy.lines()) ?? []) \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")"
        )
        let stopped = stop(process, with: SIGINT)
        #expect(stopped.status == 130)
        #expect(stopped.seconds < 10, "launchprof took \(stopped.seconds) s to stop after SIGINT")
    }

    // MARK: - 3. Xvfb that resets when its last client leaves

    @Test("xvfb-run (Xvfb without -noreset, an Xauthority cookie): 15 runs of xclock, one connection for the benchmark")
    func xvfbRunResets() throws {
        let json = Products.temporaryPath("xvfb-run.json")
        defer { unlink(json) }
        let run = try CommandRun.run(
            "/usr/bin/xvfb-run",
            [
                "-a", try Products.path("launchprof"), "run", "-r", "15", "-w", "1", "--ready", "window", "--export-json", json, "--",
                "xclock",
            ],
            timeout: 600)
        #expect(run.status == 0, "\(run.standardError)")
        let result = try #require(try ResultsDocument.load(from: json).results.first)
        #expect(result.runs.count == 15 && result.runs.allSatisfy { $0.exit.isSuccess && $0.wallToReady != nil })
    }

    @Test("a display whose socket refuses connections: tried again until --timeout, then named")
    func refusedConnectionIsRetried() throws {
        // A socket file nobody listens on (a server that left it, or one
        // resetting) on a free display number: connect is refused.
        let number = try #require(
            (700..<1000).first { access("/tmp/.X11-unix/X\($0)", F_OK) != 0 && access("/tmp/.X\($0)-lock", F_OK) != 0 })
        let path = "/tmp/.X11-unix/X\(number)"
        mkdir("/tmp/.X11-unix", 0o1777)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)
        defer {
            close(fd)
            unlink(path)
        }
        let started = Date()
        let run = try launchprof(
            ["run", "--display", ":\(number)", "--ready", "window", "--timeout", "2", "-r", "1", "-w", "0", "--", "/bin/true"],
            timeout: 120)
        #expect(run.status == 3, "\(run.standardError)")
        #expect(run.standardError.contains("Connection refused (tried again until the timeout)"), "\(run.standardError)")
        #expect(Date().timeIntervalSince(started) >= 2)
        // No socket at all is no server: that fails at once.
        unlink(path)
        let missing = try launchprof(
            ["run", "--display", ":\(number)", "--ready", "window", "--timeout", "600", "-r", "1", "-w", "0", "--", "/bin/true"],
            timeout: 120)
        #expect(missing.status == 3, "\(missing.standardError)")
        #expect(missing.standardError.contains("No such file or directory"), "\(missing.standardError)")
    }

    // MARK: - 4. Windows not wholly on the screen

    @Test(
        "--ready frame of a window not wholly on the screen: judged by the part on it",
        arguments: [
            ["xterm", "-geometry", "260x24+0+0"],  // about 1,560 pixels on the 1,280 of --display virtual
            ["xterm", "-geometry", "80x24+1200+700"],  // mostly past the bottom-right corner
            ["WINDOW", "frame-wide", "1300"],  // the 1,300 pixels
        ])
    func windowPartlyOffScreen(command: [String]) throws {
        let scratch = try ScratchDirectory()
        var command = command
        if command[0] == "WINDOW" { command[0] = try scratch.compile("window", Self.windowProgram, flags: ["-lxcb"]) }
        let run = try launchprof(
            ["run", "--display", "virtual", "--ready", "frame", "--timeout", "30", "-r", "2", "-w", "0", "--"] + command, timeout: 300)
        #expect(run.status == 0, "\(command): \(run.standardError)")
    }

    // MARK: - 5. Patterns that backtrack

    @Test("output:(a+)+$ against 30,000 a's and a b: no spin, the run times out at --timeout", .timeLimit(.minutes(3)))
    func backtrackingOutputPattern() throws {
        let started = Date()
        let run = try launchprof(
            [
                "run", "--ready", "output:(a+)+$", "--timeout", "3", "-r", "1", "-w", "0", "--", "/bin/sh", "-c",
                "python3 -c 'print(\"a\" * 30000 + \"b\", flush=True)'; sleep 60",
            ],
            timeout: 120)
        #expect(run.status == 3, "\(run.standardError)")
        #expect(run.standardError.contains("timed out before it was ready"), "\(run.standardError)")
        #expect(Date().timeIntervalSince(started) < 60)
    }

    @Test("window:(a+)+$ against a 3,000-character title: no spin; the run times out and names the title", .timeLimit(.minutes(3)))
    func backtrackingTitlePattern() throws {
        let scratch = try ScratchDirectory()
        let window = try scratch.compile("window", Self.windowProgram, flags: ["-lxcb"])
        let title = String(repeating: "a", count: 3000) + "b"
        let run = try launchprof(
            ["run", "--display", "virtual", "--ready", "window:(a+)+$", "--timeout", "3", "-r", "1", "-w", "0", "--", window, title],
            timeout: 120)
        #expect(run.status == 3, "\(run.standardError)")
        #expect(run.standardError.contains("does not match the pattern '(a+)+$'"), "\(run.standardError)")
    }

    // MARK: - 6. A window of another process

    @Test("a window that appears but belongs to another process: the timeout says whose it was and why it did not count")
    func foreignWindowIsNamed() throws {
        let scratch = try ScratchDirectory()
        let window = try scratch.compile("foreign-window", Self.windowProgram, flags: ["-lxcb"])
        let xvfb = try VirtualDisplay()
        defer { xvfb.stop() }
        let fifo = scratch.file("open-window")
        try #require(mkfifo(fifo, 0o600) == 0)
        // The "running instance": started outside launchprof, it opens its
        // window when the launched program asks (writes to the FIFO).
        let instance = Process()
        instance.executableURL = URL(fileURLWithPath: window)
        instance.arguments = ["instance", "300", fifo]
        instance.environment = ["DISPLAY": xvfb.name]
        try instance.run()
        defer {
            kill(instance.processIdentifier, SIGKILL)
            instance.waitUntilExit()
        }
        let run = try launchprof(
            [
                "run", "--display", xvfb.name, "--ready", "window", "--timeout", "3", "-r", "1", "-w", "0", "--", "/bin/sh", "-c",
                "echo > '\(fifo)'; sleep 60",
            ],
            timeout: 120)
        #expect(run.status == 3, "\(run.standardError)")
        #expect(
            run.standardError.contains("belongs to pid \(instance.processIdentifier) (foreign-window)"), "\(run.standardError)")
        #expect(run.standardError.contains("not the launched process"), "\(run.standardError)")
    }

    // MARK: - 7. A window id another client left

    /// `foreign FIFO FILE`: waits for a byte on FIFO, maps a window, writes
    /// its id to FILE and leaves (the window is destroyed, its id free).
    /// `program FIFO FILE`: asks the foreign client for its window, then
    /// connects until the server gives it the id range that client left,
    /// and 300 ms later maps its own window, of the same id.
    static let reuseProgram = """
        #include <fcntl.h>
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>
        #include <unistd.h>
        #include <xcb/xcb.h>
        static xcb_window_t open_window(xcb_connection_t *c, const char *title) {
            xcb_screen_t *s = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
            xcb_window_t w = xcb_generate_id(c);
            uint32_t values[] = {s->white_pixel};
            xcb_create_window(c, XCB_COPY_FROM_PARENT, w, s->root, 0, 0, 300, 200, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT,
                              s->root_visual, XCB_CW_BACK_PIXEL, values);
            xcb_change_property(c, XCB_PROP_MODE_REPLACE, w, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 8, strlen(title), title);
            xcb_map_window(c, w);
            free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL));
            return w;
        }
        int main(int argc, char **argv) {
            if (argc < 4) return 64;
            char path[4096];
            snprintf(path, sizeof path, "%s.tmp", argv[3]);
            if (strcmp(argv[1], "foreign") == 0) {
                char byte;
                int fd = open(argv[2], O_RDONLY);
                if (fd < 0 || read(fd, &byte, 1) != 1) return 3;
                xcb_connection_t *c = xcb_connect(NULL, NULL);
                if (xcb_connection_has_error(c)) return 2;
                xcb_window_t w = open_window(c, "theirs");
                FILE *f = fopen(path, "w");
                if (f == NULL || fprintf(f, "%u\\n", w) < 0 || fclose(f) != 0 || rename(path, argv[3]) != 0) return 5;
                xcb_disconnect(c);
                return 0;
            }
            int fd = open(argv[2], O_WRONLY);
            if (fd < 0 || write(fd, "x", 1) != 1) return 3;
            close(fd);
            unsigned theirs = 0;
            for (int i = 0; i < 6000 && theirs == 0; i++) {
                FILE *f = fopen(argv[3], "r");
                if (f == NULL || fscanf(f, "%u", &theirs) != 1) usleep(10000);
                if (f) fclose(f);
            }
            if (theirs == 0) return 4;
            for (int i = 0; i < 6000; i++) {
                xcb_connection_t *c = xcb_connect(NULL, NULL);
                if (xcb_connection_has_error(c)) return 2;
                const xcb_setup_t *setup = xcb_get_setup(c);
                if ((theirs & ~setup->resource_id_mask) == setup->resource_id_base) {
                    usleep(300000);
                    if (open_window(c, "mine") != theirs) return 6;
                    pause();
                }
                xcb_disconnect(c);
                usleep(10000);
            }
            return 7;
        }
        """

    @Test(
        "a window id another client left, taken by the program's own window: judged again, ready at the program's map, not the other's"
    )
    func reusedWindowIdIsJudgedAgain() throws {
        // X gives a client that connects the id range of one that left, so
        // a run's program often makes the very window id the previous run's
        // program had, and a late event about the old window is asked about
        // once the id is the new one's. Here within one run, every step on
        // a scripted event: a client outside the run maps a window and
        // leaves; the program connects until it has that client's id range
        // and maps a window of the same id 300 ms later.
        let scratch = try ScratchDirectory()
        let program = try scratch.compile("reuse", Self.reuseProgram, flags: ["-lxcb"])
        let xvfb = try VirtualDisplay()
        defer { xvfb.stop() }
        let fifo = scratch.file("open-window")
        let idFile = scratch.file("their-window")
        try #require(mkfifo(fifo, 0o600) == 0)
        let foreign = Process()
        foreign.executableURL = URL(fileURLWithPath: program)
        foreign.arguments = ["foreign", fifo, idFile]
        foreign.environment = ["DISPLAY": xvfb.name]
        try foreign.run()
        defer {
            kill(foreign.processIdentifier, SIGKILL)
            foreign.waitUntilExit()
        }
        let json = scratch.file("reuse.json")
        let run = try launchprof(
            [
                "run", "--display", xvfb.name, "--ready", "window", "--timeout", "60", "-r", "1", "-w", "0", "--export-json", json,
                "--", program, "program", fifo, idFile,
            ],
            timeout: 180)
        #expect(run.status == 0, "\(run.standardError)")
        foreign.waitUntilExit()
        #expect(foreign.terminationStatus == 0)
        let result = try #require(try ResultsDocument.load(from: json).results.first)
        let ready = try #require(result.runs.first?.wallToReady)
        #expect(ready >= 300_000_000, "ready at \(ready) ns: the other client's window was taken for the program's")
    }
}
