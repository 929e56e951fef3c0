import LaunchEngine
import LaunchProfFiles
import LaunchReports
import LaunchSupport

/// Where a benchmark's metrics go besides the results files: an exposition
/// file (`--export-openmetrics`, for node_exporter's textfile collector)
/// and a Pushgateway (`--push-gateway`, or the config's `push:` section).
package struct MetricsExport: Sendable, Equatable {
    /// The labels on every series.
    package var labels: MetricLabels
    /// The gateway pushed to, if any.
    package var gateway: PushGateway?
    /// The exposition file written, if any.
    package var file: String?

    /// An export with these parts.
    package init(labels: MetricLabels, gateway: PushGateway? = nil, file: String? = nil) {
        self.labels = labels
        self.gateway = gateway
        self.file = file
    }

    /// The export that flags and a config file ask for, checked before
    /// anything runs, with `labels` (`MetricLabels.resolve(flags:configured:machine:environment:)`)
    /// on every series; the gateway is `gatewayFlag`, else the config's.
    /// Nil when neither a file nor a gateway is asked for.
    package static func resolve(
        gatewayFlag: String?, file: String?, config: LaunchConfig.PushConfig?, labels: MetricLabels
    ) throws(MetricsExportError) -> MetricsExport? {
        guard let url = gatewayFlag ?? config?.gateway else {
            return file.map { MetricsExport(labels: labels, file: $0) }
        }
        do {
            return MetricsExport(labels: labels, gateway: try PushGateway(url: url, job: config?.job ?? "launchprof"), file: file)
        } catch {
            throw .push(error)
        }
    }

    /// Writes the exposition file, then pushes (through `spawner`, the
    /// command's; nil: one for the push); returns the URLs pushed to.
    /// Each is done whole or reported, and the push is tried even when the
    /// file cannot be written: the file is written atomically, and a failed
    /// push names the group's URL.
    @discardableResult
    package func export(_ document: ResultsDocument, spawner: Spawner? = nil) throws(ResultsWriteError) -> [String] {
        let exposition = PrometheusExposition(labels: labels)
        var failures: [ResultsWriteFailure] = []
        if let file {
            do {
                try AtomicFile.write(exposition.text(document), to: file)
            } catch {
                failures.append(ResultsWriteFailure(output: "--export-openmetrics", path: file, reason: "\(error)"))
            }
        }
        var pushed: [String] = []
        if let gateway {
            do {
                pushed = try gateway.push(document, exposition: exposition, spawner: spawner)
            } catch {
                failures.append(ResultsWriteFailure(output: "--push-gateway", path: gateway.url, reason: "\(error)"))
            }
        }
        if !failures.isEmpty { throw ResultsWriteError(failures) }
        return pushed
    }
}

/// Metric export flags or config that cannot be used.
package enum MetricsExportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A gateway URL or job that cannot be used.
    case push(PushError)

    package var description: String {
        switch self {
        case .push(let error): error.description
        }
    }
}
