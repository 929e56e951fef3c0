import Foundation
import Glibc
import LaunchBenchmark
import LaunchProfTestSupport
import Testing

/// `launchprof run --activate` against programs whose answers are hostile:
/// sizes that overflow or are negative, bodies without end, a warm request
/// never answered, a live socket in the way. Each must fail the run with
/// its reason, within its time, leaving nothing running.
@Suite("--activate: hostile responses", .serialized)
struct HostileActivationTests {
    /// Accepts on descriptor 3 and reads one request; then answers with the
    /// bytes of the file argv[1], or, for argv[1] "endless", a chunked body
    /// that never ends. The warm request (the second connection) is
    /// answered the same way, unless argv[2] is a path: then it creates that
    /// file and never answers.
    static let server = """
        #include <fcntl.h>
        #include <signal.h>
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>
        #include <unistd.h>
        #include <sys/socket.h>
        static void answer(int client, const char *what) {
            char request[4096]; size_t have = 0;
            while (have < sizeof request - 1) {
                ssize_t n = read(client, request + have, sizeof request - 1 - have);
                if (n <= 0) break;
                have += (size_t)n; request[have] = 0;
                if (strstr(request, "\\r\\n\\r\\n")) break;
            }
            if (strcmp(what, "endless") == 0) {
                const char *head = "HTTP/1.1 200 OK\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n";
                write(client, head, strlen(head));
                static char chunk[4096 + 8];
                memcpy(chunk, "ff8\\r\\n", 5);
                memset(chunk + 5, 'x', 0xff8);
                memcpy(chunk + 5 + 0xff8, "\\r\\n", 2);
                for (;;) if (write(client, chunk, 5 + 0xff8 + 2) < 0) return;
            }
            int fd = open(what, O_RDONLY);
            char bytes[65536]; ssize_t n;
            while ((n = read(fd, bytes, sizeof bytes)) > 0) write(client, bytes, (size_t)n);
            close(fd);
        }
        int main(int argc, char **argv) {
            signal(SIGPIPE, SIG_IGN);
            int first = accept(3, NULL, NULL);
            if (first < 0) return 1;
            answer(first, argv[1]);
            close(first);
            int warm = accept(3, NULL, NULL);
            if (argc > 2) { close(open(argv[2], O_CREAT | O_WRONLY, 0600)); for (;;) pause(); }
            answer(warm, argv[1]);
            close(warm);
            for (;;) pause();
        }
        """

    /// Runs the server once, answering with `response`; what launchprof said.
    private func answering(_ response: String, timeout: String = "20") throws -> CommandRun {
        let binary = try SamplerPrograms.compile(Self.server, name: "hostile-activated", optimization: "-O1")
        let file = Products.temporaryPath("response")
        defer {
            unlink(binary)
            unlink(file)
        }
        try response.write(toFile: file, atomically: true, encoding: .utf8)
        return try launchprof(["run", "--activate", "tcp:0", "-r", "1", "-w", "0", "--timeout", timeout, "--", binary, file])
    }

    @Test("chunk sizes that overflow, are negative or are not hexadecimal fail the run, named")
    func malformedChunkSizes() throws {
        for size in ["7fffffffffffffff", "-6", "ffffffffffffffffff", "12zz", "+5", ""] {
            let response = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\(size)\r\nhello\r\n0\r\n\r\n"
            let started = Date()
            let run = try answering(response)
            #expect(run.status == 3, "chunk size '\(size)': \(run.standardError)")
            #expect(run.standardError.contains("malformed chunk size"), "chunk size '\(size)': \(run.standardError)")
            #expect(Date().timeIntervalSince(started) < 15, "chunk size '\(size)' must fail at once, not at the timeout")
        }
    }

    @Test("a Content-Length that is negative or past the cap fails the run, named")
    func malformedContentLength() throws {
        for length in ["-6", "99999999999999999999", "1e3", "20000000"] {
            let run = try answering("HTTP/1.1 200 OK\r\nContent-Length: \(length)\r\n\r\nhello")
            #expect(run.status == 3, "Content-Length '\(length)': \(run.standardError)")
            #expect(run.standardError.contains("Content-Length"), "\(run.standardError)")
        }
    }

    @Test("an endless chunked body is cut at 16 MiB: the run fails, launchprof's memory stays small")
    func endlessBody() throws {
        let binary = try SamplerPrograms.compile(Self.server, name: "hostile-endless", optimization: "-O1")
        let usage = Products.temporaryPath("endless-rss")
        defer {
            unlink(binary)
            unlink(usage)
        }
        let run = try CommandRun.run(
            "/usr/bin/time",
            [
                "-f", "%M", "-o", usage, try Products.path("launchprof"), "run", "--activate", "tcp:0", "-r", "1", "-w", "0", "--", binary,
                "endless",
            ],
            timeout: 120)
        #expect(run.status == 3, "\(run.standardError)")
        #expect(run.standardError.contains("longer than 16 MiB"), "\(run.standardError)")
        let kib = Int(try String(contentsOfFile: usage, encoding: .utf8).split(separator: "\n").last ?? "") ?? 0
        #expect(kib > 0 && kib < 150 * 1024, "launchprof's max RSS: \(kib) KiB")
    }

    @Test("a warm request never answered does not hold Ctrl-C back: launchprof stops at once, nothing left")
    func warmRequestNeverAnswered() throws {
        let binary = try SamplerPrograms.compile(Self.server, name: "hostile-silent", optimization: "-O1")
        let response = Products.temporaryPath("ok-response")
        let marker = Products.temporaryPath("warm-arrived")
        defer {
            unlink(binary)
            unlink(response)
            unlink(marker)
        }
        try "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".write(toFile: response, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Products.path("launchprof"))
        process.arguments = ["run", "--activate", "tcp:0", "-r", "1", "-w", "0", "--timeout", "60", "--", binary, response, marker]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while access(marker, F_OK) != 0, Date() < deadline { usleep(5_000) }
        try #require(access(marker, F_OK) == 0, "the warm request never reached the server")
        let sent = Date()
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let took = Date().timeIntervalSince(sent)
        #expect(process.terminationStatus == 130)
        #expect(took < 2, "launchprof took \(took) s to stop after SIGINT")
        let left = try CommandRun.run("/usr/bin/pgrep", ["-f", binary])
        #expect(left.standardOutput.isEmpty, "left running: \(left.standardOutput)")
    }

    @Test("--activate unix: refuses a socket a program listens on, and leaves it serving")
    func liveUnixSocketIsKept() throws {
        let path = Products.temporaryPath("live.sock")
        unlink(path)
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer {
            close(listener)
            unlink(path)
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0 && listen(listener, 4) == 0)
        let run = try launchprof(["run", "--activate", "unix:\(path)", "-r", "1", "-w", "0", "--", "/bin/true"])
        #expect(run.status == 3, "\(run.standardError)")
        #expect(run.standardError.contains("a program is listening on it"), "\(run.standardError)")
        // Still there, still served.
        let client = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(connected == 0, "the live socket was removed")
    }

    @Test("a stale Unix socket (nobody listening) is replaced, and removed after")
    func staleUnixSocketIsReplaced() throws {
        let path = Products.temporaryPath("stale.sock")
        unlink(path)
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
        }
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(stale, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        close(stale)  // bound, never listened: a connect is refused
        let server = try Products.path("lp-sample-server")
        let run = try launchprof(["run", "--activate", "unix:\(path)", "-r", "1", "-w", "0", "--", server])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(access(path, F_OK) != 0, "the socket is removed after the run")
    }
}
