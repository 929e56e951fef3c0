import Foundation
import LaunchSupport

/// Turns the command-line description of what to run into launch targets:
/// quoted commands split without a shell (or run by one with `--shell`), or
/// one argv-exact command given after `--`.
package struct TargetBuilder: Sendable {
    /// Commands each written as one string (`'cmd1 a' 'cmd2 b'`), as the
    /// bytes of the command line.
    package var commands: [ByteString] = []
    /// One command given word by word after `--`, byte for byte.
    package var argv: [ByteString] = []
    /// `--command-name`, in command order; fewer names than commands is fine.
    package var names: [String] = []
    /// Run each command through `/bin/sh -c`.
    package var useShell = false
    /// The ready probe of every target.
    package var ready: ReadyProbe = .exit
    /// Files evicted before each cold run of every target.
    package var evictPaths: [String] = []

    /// A builder with no commands.
    package init() {}

    /// The targets, in command order.
    package func targets() throws(TargetBuildError) -> [LaunchTarget] {
        if !commands.isEmpty, !argv.isEmpty { throw .bothForms }
        let lines: [(name: String, arguments: [ByteString])]
        if !argv.isEmpty {
            lines = [(Self.display(argv), argv)]
        } else {
            guard !commands.isEmpty else { throw .noCommand }
            lines = try commands.map { command throws(TargetBuildError) in
                (command.string, try split(command))
            }
        }
        guard names.count <= lines.count else { throw .tooManyNames(names: names.count, commands: lines.count) }
        let targets = lines.enumerated().map { index, line in
            LaunchTarget(
                name: index < names.count ? names[index] : line.name, arguments: line.arguments,
                useShell: useShell, ready: ready, evictPaths: evictPaths)
        }
        var seen: Set<String> = []
        for target in targets where !seen.insert(target.name).inserted { throw .duplicateName(target.name) }
        return targets
    }

    private func split(_ command: ByteString) throws(TargetBuildError) -> [ByteString] {
        // With --shell the string goes to /bin/sh -c as written.
        if useShell { return [command] }
        let words: [ByteString]
        do throws(CommandSplitError) {
            words = try CommandSplitter.split(command)
        } catch {
            throw .unsplittable(error)
        }
        guard !words.isEmpty else { throw .emptyCommand }
        return words
    }

    /// argv for display, quoting words a reader could not tell apart otherwise.
    static func display(_ argv: [ByteString]) -> String {
        argv.map(\.string).map { word in
            word.isEmpty || word.contains(where: { " \t\n'\"\\$`".contains($0) })
                ? "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" : word
        }.joined(separator: " ")
    }
}
