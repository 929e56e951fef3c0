import Foundation
import LaunchAnalysis

/// Asks llvm-symbolizer where in the source each address of one module is:
/// one run per module with all its addresses, never one per address (the
/// tool spends most of its time reading the debug info).
struct SourceLineLookup {
    var tool: String
    var timeout: Duration
    /// The command's spawner, which runs the tool.
    var spawner: Spawner

    /// Why a module's addresses got no source lines.
    enum Failure: Error, CustomStringConvertible {
        case cannotRun(LaunchError)
        case timedOut(Duration)
        case exited(Int32, message: String)
        case signaled(Int32, message: String)
        case output(SourceLineOutput.Failure)

        var description: String {
            switch self {
            case .cannotRun(let error): "could not be run: \(error)"
            case .timedOut(let limit):
                "was still running after \(String(format: "%g", limit.seconds)) s and was stopped"
            case .exited(let status, let message): "exited with status \(status)\(message.isEmpty ? "" : ": \(message)")"
            case .signaled(let signal, let message): "was killed by signal \(signal)\(message.isEmpty ? "" : ": \(message)")"
            case .output(let failure): "gave \(failure)"
            }
        }
    }

    /// Frames for each of `addresses` (ELF virtual addresses in `module`),
    /// innermost first.
    func frames(module: String, addresses: [UInt64]) throws(Failure) -> [UInt64: [SourceFrame]] {
        let input = addresses.map { "0x" + String($0, radix: 16) + "\n" }.joined()
        let run: ToolProcess
        do {
            run = try ToolProcess.run(
                tool, arguments: ["--obj=\(module)", "--output-style=JSON", "--inlines", "--no-demangle"],
                input: Data(input.utf8), timeout: timeout, spawner: spawner)
        } catch {
            throw .cannotRun(error)
        }
        switch run.end {
        case .exited(0): return try parse(run.output)
        case .exited(let status): throw .exited(status, message: Self.message(of: run))
        case .signaled(let signal): throw .signaled(signal, message: Self.message(of: run))
        case .timedOut: throw .timedOut(timeout)
        }
    }

    /// What went wrong, in the tool's words: the error it printed as JSON
    /// (LLVM 21 reports an unreadable file so, and exits 1), else the last
    /// line of its standard error.
    private static func message(of run: ToolProcess) -> String {
        do {
            _ = try SourceLineOutput.parse(run.output)
        } catch .reported(let message) {
            return message
        } catch {}
        let errors = String(decoding: run.errorOutput, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return errors.split(separator: "\n").last.map(String.init) ?? ""
    }

    private func parse(_ output: Data) throws(Failure) -> [UInt64: [SourceFrame]] {
        do {
            return try SourceLineOutput.parse(output)
        } catch {
            throw .output(error)
        }
    }
}
