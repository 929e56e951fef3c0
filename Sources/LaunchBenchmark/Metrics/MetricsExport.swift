/// Where a benchmark's metrics go besides the results files: an exposition
/// file (`--export-openmetrics`, for node_exporter's textfile collector)
/// and a Pushgateway (`--push-gateway`, or the config's `push:` section).
public struct MetricsExport: Sendable, Equatable {
    /// The labels on every series.
    public var labels: MetricLabels
    /// The gateway pushed to, if any.
    public var gateway: PushGateway?
    /// The exposition file written, if any.
    public var file: String?

    /// An export with these parts.
    public init(labels: MetricLabels, gateway: PushGateway? = nil, file: String? = nil) {
        self.labels = labels
        self.gateway = gateway
        self.file = file
    }

    /// The export that flags and a config file ask for, checked before
    /// anything runs: labels are the standard ones (machine, version, CI's
    /// commit, branch and runner), then the config's, then `labelFlags`
    /// (`k=v`, which win); the gateway is `gatewayFlag`, else the config's.
    /// Nil when neither a file nor a gateway is asked for.
    public static func resolve(
        gatewayFlag: String?, labelFlags: [String], file: String?, config: LaunchConfig.PushConfig?,
        machine: String = MachineDescription.current().hostname
    ) throws(MetricsExportError) -> MetricsExport? {
        var labels = MetricLabels.standard(machine: machine)
        for (name, value) in (config?.labels ?? [:]).sorted(by: { $0.key < $1.key }) { labels[name] = value }
        for text in labelFlags {
            do {
                let (name, value) = try MetricLabels.parse(text)
                labels[name] = value
            } catch {
                throw .label(error)
            }
        }
        let url = gatewayFlag ?? config?.gateway
        guard url != nil || file != nil else {
            if !labelFlags.isEmpty { throw .labelsUnused }
            return nil
        }
        do {
            let gateway = try url.map { url throws(PushError) in try PushGateway(url: url, job: config?.job ?? "launchprof") }
            return MetricsExport(labels: labels, gateway: gateway, file: file)
        } catch {
            throw .push(error)
        }
    }

    /// Writes the exposition file, then pushes; returns the URLs pushed to.
    /// Each is done whole or reported: the file is written atomically, and
    /// a failed push names the group's URL.
    @discardableResult
    public func export(_ document: ResultsDocument) throws(ResultsWriteError) -> [String] {
        let exposition = PrometheusExposition(labels: labels)
        if let file {
            do {
                try AtomicWrite.write(Array(exposition.text(document).utf8), to: file)
            } catch {
                throw ResultsWriteError(path: file, reason: "\(error)")
            }
        }
        guard let gateway else { return [] }
        do {
            return try gateway.push(document, exposition: exposition)
        } catch {
            throw ResultsWriteError(path: gateway.url, reason: "\(error)")
        }
    }
}

/// Metric export flags or config that cannot be used.
public enum MetricsExportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A `--label` that is not a usable label.
    case label(MetricLabelError)
    /// A gateway URL or job that cannot be used.
    case push(PushError)
    /// `--label` given with nowhere to send the labels.
    case labelsUnused

    public var description: String {
        switch self {
        case .label(let error): error.description
        case .push(let error): error.description
        case .labelsUnused: "--label applies with --push-gateway or --export-openmetrics (or a config's push: gateway)"
        }
    }
}
