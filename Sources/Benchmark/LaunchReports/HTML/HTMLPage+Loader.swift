import LaunchEngine

extension HTMLPage {
    /// The dynamic loader's time by library (`run --loader`), warm and cold
    /// side by side, as `explain --loader` prints it; nil when no result of
    /// the target has it.
    func loaderTable(_ results: [BenchmarkResult]) -> String? {
        let warm = results.first { $0.mode == .warm }?.loader, cold = results.first { $0.mode == .cold }?.loader
        guard warm != nil || cold != nil else { return nil }
        let columns = LoaderTable.header.indices.filter { index in
            index == 0 || (index <= 4 ? warm != nil : cold != nil)
        }
        let rows = LoaderTable.rows(warm: warm, cold: cold).map { row in
            "<tr>"
                + columns.map { index in
                    index == 0
                        ? "<td><code>\(escape(row[index]))</code></td>" : "<td class=\"number\">\(escape(row[index]))</td>"
                }.joined() + "</tr>"
        }
        return "<h3>The dynamic loader, library by library</h3>\n<table>\n<thead><tr>"
            + columns.map { "<th>\(escape(LoaderTable.header[$0]))</th>" }.joined() + "</tr></thead>\n<tbody>\n"
            + rows.joined(separator: "\n") + "\n</tbody></table>\n<p class=\"facts\">\(escape(LoaderTable.legend))</p>"
    }
}
