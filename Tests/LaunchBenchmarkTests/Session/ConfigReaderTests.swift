import Foundation
import LaunchBenchmark
import Testing

@Suite("launchprof.yml")
struct ConfigReaderTests {
    static let directory = NSTemporaryDirectory()

    func parse(_ text: String) throws(ConfigError) -> LaunchConfig {
        try ConfigReader.parse(text, file: "launchprof.yml", directory: "/tmp")
    }

    @Test("every key of a good file")
    func everyKey() throws {
        let config = try parse(
            """
            version: 1
            reference: hello
            threshold: 3%
            significance: 0.05
            defaults:
              runs: 25
              warmup: 2
              modes: [warm]
              timeout: 20s
              ready: exit
            targets:
              - name: hello
                command: [/bin/true]
              - name: app
                command: [bin/app, --port, 8080]
                working_directory: /tmp
                environment: {APP_MODE: fast, LEVEL: 3}
                ready: port:8080
                modes: [cold, warm]
                min_runs: 10
                max_runs: 40
                warmup: 1
                timeout: 500ms
                evict: [/tmp]
                budgets:
                  - metric: ready
                    statistic: p95
                    limit: 40ms
                    mode: warm
                    threshold: 10%
                  - metric: max_rss
                    statistic: max
                    limit: <= 30MiB
                  - metric: milestone:config loaded
                    limit: 1.5x hello exit
            budgets:
              - target: app
                metric: major_faults
                statistic: mean
                limit: 12
              - target: app
                metric: cpu
                limit: 2x
            """)
        #expect(config.reference == "hello")
        #expect(config.threshold == 0.03 && config.significance == 0.05)
        #expect(config.defaults == TargetSchedule(modes: [.warm], warmup: 2, stopping: .fixed(25), timeout: .seconds(20)))
        #expect(config.targets.map(\.name) == ["hello", "app"])
        let app = config.targets[1]
        #expect(app.arguments == ["/tmp/bin/app", "--port", "8080"])
        #expect(app.workingDirectory == "/tmp")
        #expect(app.environment == ["APP_MODE": "fast", "LEVEL": "3"])
        #expect(app.ready == .port(8080))
        #expect(app.evictPaths == ["/tmp"])
        #expect(config.targets[0].ready == .exit)
        let schedule = try #require(config.schedules["app"])
        #expect(schedule.modes == [.cold, .warm] && schedule.warmup == 1 && schedule.timeout == .milliseconds(500))
        #expect(schedule.stopping?.minRuns == 10 && schedule.stopping?.maxRuns == 40)
        #expect(config.budgets.count == 5)
        #expect(
            config.budgets[0]
                == Budget(
                    target: "app", mode: .warm, metric: .wallToReady, statistic: .p95,
                    limit: .absolute(Quantity(value: 40e6, unit: .nanoseconds)), threshold: 0.10, source: "launchprof.yml:26"))
        #expect(config.budgets[1].limit == .absolute(Quantity(value: 30 * 1_048_576, unit: .bytes)))
        #expect(config.budgets[2].metric == .milestone("config loaded"))
        #expect(config.budgets[2].limit == .ratio(1.5, reference: "hello", metric: .wallToExit))
        #expect(config.budgets[3].metric == .majorFaults && config.budgets[3].statistic == .mean)
        #expect(config.budgets[4].limit == .ratio(2, reference: "hello"))

        // Flags override the file; the file's target settings override its defaults.
        let plan = try config.plan(selecting: ["app"], overrides: RunOverrides(warmup: 7))
        #expect(plan.targets.map(\.name) == ["hello", "app"])  // hello: the reference of app's ratio budgets
        #expect(plan.warmup(of: app) == 7 && plan.modes(of: app) == [.cold, .warm])
        #expect(plan.stopping(of: config.targets[0]) == .fixed(25))
        #expect(plan.timeout(of: app) == .milliseconds(500))
        #expect(throws: TargetSelectionError.self) { try config.plan(selecting: ["nope"]) }
    }

    @Test(
        "bad files: the error names the file, the line and the key",
        arguments: [
            ("targets: [{name: a, command: [x]}]\nbogus: 1", "launchprof.yml:2:1: bogus: unknown key"),
            ("targets:\n  - name: a\n    comand: [x]", "launchprof.yml:3:5: targets[0].comand: unknown key (known here:"),
            ("targets:\n  - name: a\n    comand: [x]", "did you mean 'command'?"),
            (
                "targets:\n  - name: a\n    command: [x]\n    runs: abc",
                "launchprof.yml:4:11: targets[0].runs: expected a whole number, got 'abc'"
            ),
            ("targets:\n  - name: a\n    command: [x]\n    runs: 0", "targets[0].runs: must be from 1 to 1000000, got '0'"),
            ("targets:\n  - name: a\n    command: x", "targets[0].command: expected a list, got 'x'"),
            ("targets:\n  - name: a\n    command: []", "targets[0].command: must list the program and its arguments"),
            ("targets:\n  - name: a", "launchprof.yml:2:5: targets[0]: target 'a' has no 'command'"),
            ("targets:\n  - command: [x]", "targets[0]: has no 'name'"),
            (
                "targets:\n  - {name: a, command: [x]}\n  - {name: a, command: [y]}",
                "launchprof.yml:3:5: targets[1]: a second target named 'a'"
            ),
            (
                "threshold: 150%\ntargets: [{name: a, command: [x]}]",
                "launchprof.yml:1:12: threshold: the regression threshold must be a percentage or fraction between 0 and 1 (e.g. 5% or 0.05), got '150%'"
            ),
            (
                "significance: often\ntargets: [{name: a, command: [x]}]",
                "significance: the significance level must be a percentage or fraction between 0 and 1"
            ),
            (
                "targets: [{name: a, command: [x]}]\npush: {gateway: 'ftp://gw'}",
                "launchprof.yml:2:17: push.gateway: 'ftp://gw' is not an http:// or https:// URL with a host"
            ),
            ("targets: [{name: a, command: [x]}]\npush: {gatway: 'http://gw'}", "push.gatway: unknown key"),
            ("targets: [{name: a, command: [x]}]\npush: {labels: {target: x}}", "push.labels: 'target' cannot be a label"),
            ("targets: [{name: a, command: [x]}]\npush: {labels: {9lives: x}}", "push.labels: '9lives' cannot be a label"),
            ("targets: [{name: a, command: [x], modes: [hot]}]", "targets[0].modes[0]: unknown mode 'hot' (cold or warm)"),
            ("targets: [{name: a, command: [x], ready: soon}]", "targets[0].ready: unknown ready probe 'soon'"),
            ("targets: [{name: a, command: [x], timeout: forever}]", "targets[0].timeout: expected a duration like 10s or 500ms"),
            // Values that trapped converting to Duration before InputNumber checked them.
            (
                "defaults:\n  timeout: 1e10\ntargets: [{name: a, command: [x]}]",
                "launchprof.yml:2:12: defaults.timeout: must be at most 1000000 seconds, got '1e10'"
            ),
            ("targets: [{name: a, command: [x], timeout: inf}]", "targets[0].timeout: must be a finite number of seconds, got 'inf'"),
            (
                "targets: [{name: a, command: [x], timeout: .inf}]",
                "targets[0].timeout: expected a duration like 10s or 500ms (or a number of seconds), got '.inf'"
            ),
            ("targets: [{name: a, command: [x], timeout: nan}]", "targets[0].timeout: is not a number, got 'nan'"),
            ("targets: [{name: a, command: [x], timeout: -3s}]", "targets[0].timeout: must be a positive number of seconds, got '-3s'"),
            ("targets: [{name: a, command: [x], timeout: 1e300ms}]", "targets[0].timeout: must be at most 1000000 seconds, got '1e300ms'"),
            ("targets: [{name: a, command: [x], timeout: infs}]", "targets[0].timeout: must be a finite number of seconds, got 'infs'"),
            (
                "targets: [{name: a, command: [x], runs: 99999999999999999999}]",
                "targets[0].runs: expected a whole number, got '99999999999999999999'"
            ),
            ("targets: [{name: a, command: [x], warmup: 5000000}]", "targets[0].warmup: must be from 0 to 1000000, got '5000000'"),
            ("targets: [{name: a, command: [x], budgets: [{metric: ready, limit: 1e300s}]}]", "'1e300s' is too large"),
            ("targets: [{name: a, command: [x], runs: 5, max_runs: 9}]", "'runs' fixes the run count"),
            ("targets: [{name: a, command: [x], working_directory: /nonexistent/dir}]", "'/nonexistent/dir' is not a directory"),
            ("targets: [{name: a, command: [x], evict: [/nonexistent/file]}]", "targets[0].evict[0]: '/nonexistent/file' does not exist"),
            ("targets: [{name: a, command: [x], environment: [A]}]", "targets[0].environment: expected a mapping of NAME: value"),
            (
                "targets:\n  - name: a\n    command: [x]\n    budgets:\n      - metric: wall_to_ready\n        limit: 30MiB",
                "launchprof.yml:6:16: targets[0].budgets[0].limit: a size limit for wall_to_ready, which is a time"
            ),
            (
                "targets: [{name: a, command: [x], budgets: [{metric: speed, limit: 1ms}]}]",
                "targets[0].budgets[0].metric: unknown metric 'speed'"
            ),
            ("targets: [{name: a, command: [x], budgets: [{metric: ready, statistic: p42, limit: 1ms}]}]", "unknown statistic 'p42'"),
            ("targets: [{name: a, command: [x], budgets: [{metric: ready, limit: 1 fortnight}]}]", "has unknown unit 'fortnight'"),
            ("targets: [{name: a, command: [x], budgets: [{metric: ready}]}]", "targets[0].budgets[0]: has no 'limit'"),
            ("targets: [{name: a, command: [x], budgets: [{metric: ready, limit: 2x}]}]", "is a ratio but names no reference target"),
            (
                "targets: [{name: a, command: [x], budgets: [{metric: ready, limit: 2x b}]}]",
                "ratio to 'b', which is not a target (targets: a)"
            ),
            (
                "targets: [{name: a, command: [x], budgets: [{metric: max_rss, limit: 2x a exit}]}]",
                "a ratio of max_rss (a size) to wall_to_exit (a time)"
            ),
            ("targets: [{name: a, command: [x]}]\nbudgets: [{metric: ready, limit: 1ms}]", "budgets[0]: a top-level budget needs 'target'"),
            (
                "targets: [{name: a, command: [x]}]\nbudgets: [{target: b, metric: ready, limit: 1ms}]",
                "budget for 'b', which is not a target"
            ),
            ("reference: z\ntargets: [{name: a, command: [x]}]", "launchprof.yml:1:12: reference: 'z' is not a target"),
            ("version: 2\ntargets: [{name: a, command: [x]}]", "version: this launchprof reads config version 1"),
            ("targets: []", "targets: must list at least one target"),
            ("reference: a", "targets: is missing"),
            ("", "launchprof.yml: is empty"),
            ("targets: [{name: a, command: [x]}]\ntargets: []", "launchprof.yml:1:1: targets: appears twice"),
            ("targets:\n  - name: a\n   command: [x]", "launchprof.yml:3:"),
            ("- just\n- a list", "expected a mapping of keys, got a list"),
        ])
    func badFiles(_ text: String, _ message: String) {
        do {
            let config = try parse(text)
            Issue.record("accepted: \(config)")
        } catch {
            #expect(error.description.contains(message), "\(error.description)")
        }
    }

    @Test("a file that does not exist, and relative paths anchored at the file's directory")
    func files() throws {
        #expect(throws: ConfigError(file: "/nonexistent/launchprof.yml", message: "does not exist")) {
            try ConfigReader.read(path: "/nonexistent/launchprof.yml")
        }
        let directory = "\(Self.directory)/launchprof-config-\(getpid())-\(UUID().uuidString.prefix(6))"
        try FileManager.default.createDirectory(atPath: "\(directory)/bin", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/launchprof.yml"
        try "targets:\n  - name: a\n    command: [./bin/a, ./relative-argument]\n    working_directory: bin\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let config = try ConfigReader.read(path: path)
        let resolved = URL(fileURLWithPath: directory).standardizedFileURL.path
        #expect(config.targets[0].workingDirectory == "\(resolved)/bin")
        #expect(config.targets[0].arguments == ["\(resolved)/bin/bin/a", "./relative-argument"])
    }

    @Test("push: a gateway, a job and labels for every series")
    func pushSection() throws {
        let config = try parse(
            """
            targets: [{name: a, command: [x]}]
            push:
              gateway: https://gateway.example:9091
              job: nightly
              labels: {team: perf, site: eu}
            """)
        #expect(
            config.push
                == LaunchConfig.PushConfig(
                    gateway: "https://gateway.example:9091", job: "nightly", labels: ["team": "perf", "site": "eu"]))
        #expect(try parse("targets: [{name: a, command: [x]}]").push == nil)
    }
}
