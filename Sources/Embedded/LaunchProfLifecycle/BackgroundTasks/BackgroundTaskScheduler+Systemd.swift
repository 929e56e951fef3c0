import Glibc
import LaunchProf
import LaunchProfFiles

extension BackgroundTaskScheduler {
    /// The systemd units that launch this program in the background for each
    /// scheduled task, as iOS launches an app to run one: a oneshot service
    /// that runs `executable arguments…` with `LAUNCHPROF_BACKGROUND_TASK`
    /// set to the task (`LaunchTracker.backgroundTaskIdentifier`), and a
    /// timer that starts it at the task's interval (a one-off processing
    /// task: once per boot). The program decides whether the task is really
    /// due, so a timer that fires early runs nothing.
    ///
    /// Conditions map to systemd's: external power to `ConditionACPower=true`,
    /// network to `network-online.target`.
    public func systemdUnits(
        executable: String, arguments: [String] = [], prefix: String, workingDirectory: String? = nil
    ) -> [SystemdUnit] {
        let requests = scheduledIdentifiers.compactMap { request($0) }
        return requests.flatMap { request -> [SystemdUnit] in
            let base = "\(prefix)-\(request.identifier)"
            var service = [
                "[Unit]", "Description=Background task \(request.identifier) (launchprof BackgroundTaskScheduler)",
            ]
            if request.requiresExternalPower { service.append("ConditionACPower=true") }
            if request.requiresNetwork { service += ["Wants=network-online.target", "After=network-online.target"] }
            service += [
                "", "[Service]", "Type=oneshot",
                "ExecStart=" + ([executable] + arguments).map(Self.systemdQuoted).joined(separator: " "),
                "Environment=LAUNCHPROF_BACKGROUND_TASK=\(request.identifier)",
                // The run's own budget, and a margin for the launch around it.
                "TimeoutStartSec=\(Self.milliseconds(request.timeBudget) / 1000 + 30)s",
            ]
            if let workingDirectory { service.append("WorkingDirectory=\(Self.systemdQuoted(workingDirectory))") }
            var timer = ["[Unit]", "Description=Schedule of background task \(request.identifier)", "", "[Timer]"]
            switch request.kind {
            case .refresh(let interval), .processing(let interval?):
                let seconds = max(1, Self.milliseconds(interval) / 1000)
                timer += ["OnBootSec=\(seconds)s", "OnUnitActiveSec=\(seconds)s"]
            case .processing(nil):
                timer += ["OnBootSec=60s"]
            }
            timer += ["AccuracySec=1s", "Unit=\(base).service", "", "[Install]", "WantedBy=timers.target"]
            return [
                SystemdUnit(name: "\(base).service", contents: service.joined(separator: "\n") + "\n"),
                SystemdUnit(name: "\(base).timer", contents: timer.joined(separator: "\n") + "\n"),
            ]
        }
    }

    /// Writes ``systemdUnits(executable:arguments:prefix:workingDirectory:)``
    /// to `directory` (each file whole or not at all); returns their paths.
    @discardableResult
    public func writeSystemdUnits(
        to directory: String, executable: String, arguments: [String] = [], prefix: String, workingDirectory: String? = nil
    ) throws(BackgroundTaskError) -> [String] {
        var paths: [String] = []
        for unit in systemdUnits(executable: executable, arguments: arguments, prefix: prefix, workingDirectory: workingDirectory) {
            let path = "\(directory)/\(unit.name)"
            do {
                try AtomicFile.write(Array(unit.contents.utf8), to: path, mode: 0o644)
            } catch {
                throw .unwritableUnit(path: path, reason: error.description)
            }
            paths.append(path)
        }
        return paths
    }

    /// A word of an `ExecStart=` line: quoted when it needs to be, with
    /// systemd's `%` and `$` expansions escaped.
    static func systemdQuoted(_ word: String) -> String {
        var escaped = ""
        for character in word {
            switch character {
            case "%": escaped += "%%"
            case "$": escaped += "$$"
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            default: escaped.append(character)
            }
        }
        let plain =
            !word.isEmpty && !word.contains(where: { $0 == " " || $0 == "\t" || $0 == "\"" || $0 == "'" || $0 == "\\" || $0 == ";" })
        return plain ? escaped : "\"\(escaped)\""
    }
}
