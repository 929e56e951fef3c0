import Foundation
import LaunchEngine

/// Why results could not be pushed. The results files are written before
/// any push, so nothing measured is lost.
package enum PushError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not an http or https URL with a host (and no query or fragment).
    case badURL(String)
    /// An empty job name.
    case badJob(String)
    /// curl could not be run.
    case curl(url: String, reason: String)
    /// The push failed: no connection, a timeout, or the gateway refused it.
    case failed(url: String, reason: String)

    package var description: String {
        switch self {
        case .badURL(let url): "--push-gateway '\(url)' is not an http:// or https:// URL with a host"
        case .badJob(let job): "push job '\(job)' must not be empty"
        case let .curl(url, reason): "cannot push to \(url): cannot run curl (install it): \(reason)"
        case let .failed(url, reason): "cannot push to \(url): \(reason)"
        }
    }
}
