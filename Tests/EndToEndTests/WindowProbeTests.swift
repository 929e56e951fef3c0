import Foundation
import Glibc
import LaunchBenchmark
import LaunchProfTestSupport
import Testing

/// `--ready window` and `--ready frame` on real desktop programs from Debian
/// (an Xt program, a terminal, Tk, GTK) under a private Xvfb, and on a
/// program that maps an empty window first and draws 100 ms later.
@Suite("--ready window and frame", .serialized)
struct WindowProbeTests {
    /// Maps an empty white window at once, titled argv[1] or "late-frame",
    /// and draws into it 100 ms later.
    static let lateFrame = """
        #include <string.h>
        #include <unistd.h>
        #include <xcb/xcb.h>
        int main(int argc, char **argv) {
            const char *title = argc > 1 ? argv[1] : "late-frame";
            xcb_connection_t *c = xcb_connect(NULL, NULL);
            if (xcb_connection_has_error(c)) return 2;
            xcb_screen_t *s = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
            xcb_window_t w = xcb_generate_id(c);
            uint32_t values[] = {s->white_pixel, XCB_EVENT_MASK_EXPOSURE};
            xcb_create_window(c, XCB_COPY_FROM_PARENT, w, s->root, 0, 0, 300, 200, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT,
                              s->root_visual, XCB_CW_BACK_PIXEL | XCB_CW_EVENT_MASK, values);
            xcb_change_property(c, XCB_PROP_MODE_REPLACE, w, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 8, strlen(title), title);
            xcb_map_window(c, w);
            xcb_flush(c);
            usleep(100000);
            xcb_gcontext_t g = xcb_generate_id(c);
            uint32_t foreground[] = {s->black_pixel};
            xcb_create_gc(c, g, w, XCB_GC_FOREGROUND, foreground);
            xcb_rectangle_t r = {20, 20, 100, 50};
            xcb_poly_fill_rectangle(c, w, g, 1, &r);
            xcb_flush(c);
            pause();
        }
        """

    /// Runs launchprof with `arguments` and a JSON export; the first result.
    private func measure(_ arguments: [String]) throws -> (run: CommandRun, result: BenchmarkResult?) {
        let json = Products.temporaryPath("window-\(UInt32.random(in: 0...UInt32.max)).json")
        defer { unlink(json) }
        let run = try launchprof(["run", "--export-json", json] + arguments)
        return (run, try? ResultsDocument.load(from: json).results.first)
    }

    /// The private displays launchprof said it started (its note) whose
    /// Xvfb is still there: its lock file stays until it exits.
    private func displaysLeft(_ run: CommandRun) -> [String] {
        let text = run.standardOutput + run.standardError
        let names = text.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "private X display, Xvfb :") else { return nil }
            return String(line[range.upperBound...].prefix { $0.isNumber })
        }
        return names.filter { access("/tmp/.X\($0)-lock", F_OK) == 0 }
    }

    @Test("an empty window mapped at once and drawn 100 ms later: window at its map, frame at its drawing")
    func frameIsTheDrawingNotTheMap() throws {
        let scratch = try ScratchDirectory()
        let late = try scratch.compile("late-frame", Self.lateFrame, flags: ["-lxcb"])
        let window = try measure(["--display", "virtual", "--ready", "window", "-r", "5", "-w", "1", "--", late])
        #expect(window.run.status == 0, "\(window.run.standardError)")
        let frame = try measure(["--display", "virtual", "--ready", "frame", "-r", "5", "-w", "1", "--", late])
        #expect(frame.run.status == 0, "\(frame.run.standardError)")
        let mapped = try #require(window.result?.summaries["wall_to_ready"]?.median)
        let drawn = try #require(frame.result?.summaries["wall_to_ready"]?.median)
        #expect(mapped < 50_000_000, "the map comes at once: \(mapped) ns")
        #expect(drawn >= 100_000_000 && drawn < 400_000_000, "the frame is the drawing 100 ms later: \(drawn) ns")
        let first = try #require(frame.result?.summaries["milestone:first window"]?.median, "the map is kept as a milestone")
        #expect(first < drawn - 90_000_000)
        #expect(displaysLeft(window.run).isEmpty && displaysLeft(frame.run).isEmpty, "the private Xvfb is stopped")
    }

    @Test(
        "real desktop programs, warm and cold: an Xt clock, a terminal, Tk and GTK, to their window and their frame",
        arguments: [
            ["xclock"], ["xterm"],
            ["python3", "-c", "import tkinter as t; r=t.Tk(); r.title('tk-sample'); t.Label(r, text='hi').pack(); r.mainloop()"],
            ["zenity", "--info", "--text", "launched"],
        ])
    func realPrograms(command: [String]) throws {
        for probe in ["window", "frame"] {
            let measured = try measure(
                [
                    "--display", "virtual", "--ready", probe, "--mode", "warm", "--mode", "cold", "-r", "3", "-w", "1", "--timeout", "30",
                    "--",
                ]
                    + command)
            #expect(measured.run.status == 0, "\(command[0]) --ready \(probe): \(measured.run.standardError)")
            let document = try #require(measured.result, "\(command[0]): no results")
            #expect(document.runs.allSatisfy { $0.exit.isSuccess && $0.wallToReady != nil }, "\(command[0]) --ready \(probe)")
            #expect(displaysLeft(measured.run).isEmpty, "the private Xvfb is stopped")
        }
    }

    @Test("a title pattern waits for the window it names; one that never appears times out, named")
    func titlePattern() throws {
        let scratch = try ScratchDirectory()
        let late = try scratch.compile("late-titled", Self.lateFrame, flags: ["-lxcb"])
        let named = try measure([
            "--display", "virtual", "--ready", "window:^main window$", "-r", "2", "-w", "0", "--", late, "main window",
        ])
        #expect(named.run.status == 0, "\(named.run.standardError)")
        let other = try measure(
            ["--display", "virtual", "--ready", "window:^settings$", "-r", "1", "-w", "0", "--timeout", "2", "--", late, "main window"])
        #expect(other.run.status == 3)
        #expect(other.run.standardError.contains("timed out before it was ready"), "\(other.run.standardError)")
    }

    @Test("no display, a bad --display, a bad pattern: clear errors naming what is wrong")
    func errors() throws {
        let missing = try CommandRun.run(
            try Products.path("launchprof"), ["run", "--ready", "window", "-r", "1", "-w", "0", "--", "/bin/true"],
            environment: ["DISPLAY": ":987"], timeout: 60)
        #expect(missing.status == 3)
        #expect(missing.standardError.contains("cannot connect to the X display ':987'"), "\(missing.standardError)")
        let bad = try launchprof(["run", "--display", "nowhere", "--ready", "window", "/bin/true"])
        #expect(bad.status == 2 || bad.status == 64)
        #expect(bad.standardError.contains("--display 'nowhere'"), "\(bad.standardError)")
        let pattern = try launchprof(["run", "--ready", "frame:(", "/bin/true"])
        #expect(pattern.standardError.contains("is not a valid regular expression"), "\(pattern.standardError)")
    }
}
