import LaunchEngine

extension BenchmarkSession {
    /// `results` with each one's ``BenchmarkResult/loader`` measured (`--loader`):
    /// `launches` audited launches per target and mode, cold ones evicted as
    /// cold runs are. A target that cannot be audited (a static program, no
    /// audit library) keeps no profile, and a note says why; the results
    /// are written all the same.
    static func withLoaderProfiles(
        _ results: [BenchmarkResult], launches: Int, dropCaches: Bool, spawner: Spawner, events: (BenchmarkEvent) -> Void
    ) -> [BenchmarkResult] {
        let library: String
        do {
            library = try LoaderAudit.locateLibrary()
        } catch {
            events(.note("--loader: \(error)"))
            return results
        }
        let audit = LoaderAudit(library: library, launches: launches, spawner: spawner)
        let evictor = try? PageCacheEvictor(dropAllCaches: dropCaches)
        return results.map { result in
            var result = result
            do {
                result.loader = try audit.profile(result.target, mode: result.mode, evictor: evictor)
            } catch {
                events(.note("--loader, \(result.label): \(error)"))
            }
            return result
        }
    }
}
