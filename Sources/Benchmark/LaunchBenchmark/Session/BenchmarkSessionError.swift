import Foundation
import Glibc
import LaunchAnalysis
import LaunchEngine
import LaunchProfFiles
import LaunchSupport

/// Why a benchmark could not start, with the exit status the CLI gives it.
public struct BenchmarkSessionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The exit status the CLI gives it: `LaunchExitStatus.usage` or `LaunchExitStatus.launchFailed`.
    public var status: LaunchExitStatus
    /// What is wrong, naming the input.
    public var message: String

    /// An error with this status and message.
    public init(status: LaunchExitStatus, message: String) {
        self.status = status
        self.message = message
    }

    /// Bad usage or input: exit status 2.
    public static func usage(_ message: String) -> BenchmarkSessionError { .init(status: .usage, message: message) }
    /// A target that cannot be launched: exit status 3.
    public static func launchFailed(_ message: String) -> BenchmarkSessionError { .init(status: .launchFailed, message: message) }

    public var description: String { message }
}
