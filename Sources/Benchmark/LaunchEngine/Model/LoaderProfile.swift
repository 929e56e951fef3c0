import Foundation

/// The dynamic loader's time on each shared library of a launch, warm or
/// cold: medians over launches made with liblaunchprof-audit.so
/// (docs/sampling.md says what is measured and what estimated). In results
/// JSON as ``BenchmarkResult/loader``; versioned, and checked on load.
public struct LoaderProfile: Sendable, Equatable, Codable {
    /// The schema of this field; a results file with another is refused.
    public static let currentVersion = 1
    /// Most libraries a results file may list.
    public static let maximumLibraries = LoaderLaunch.maximumObjects

    /// One object of the launch.
    public struct Library: Sendable, Equatable, Codable {
        /// Its path as the loader named it ("(the program)" for the executable).
        public var path: String
        /// Search + open + mmap, ns (measured); nil for objects mapped without a search.
        public var map: Double?
        /// Relocation, ns: the measured total shared by relocation counts (estimated).
        public var relocate: Double
        /// Constructors, ns (measured from the loader's "calling init" lines).
        public var initialize: Double
        /// A library's medians, ns.
        public init(path: String, map: Double?, relocate: Double, initialize: Double) {
            self.path = path
            self.map = map
            self.relocate = relocate
            self.initialize = initialize
        }

        /// map + relocate + initialize.
        public var total: Double { (map ?? 0) + relocate + initialize }
    }

    /// The schema version (``currentVersion``).
    public var version: Int
    /// Warm or cold.
    public var mode: LaunchMode
    /// Launches the medians are over.
    public var launches: Int
    /// Every object, largest total first.
    public var libraries: [Library]
    /// Median of each launch's mapping (all its searches and maps), ns.
    public var mapping: Double
    /// Median relocation (the last map → LA_ACT_CONSISTENT), ns.
    public var relocation: Double
    /// Median constructors (LA_ACT_CONSISTENT → la_preinit), ns.
    public var constructors: Double
    /// Median of the program's own constructors, ns; nil when a launch did not show them.
    public var programInit: Double?
    /// Median of the audit library's start → la_preinit (the loader's whole part of pre-main), ns.
    public var total: Double
    /// Whether each library's constructors were timed (else only their total is).
    public var constructorsSplit: Bool
    /// What a reader should know (launches that failed, limits met).
    public var notes: [String]

    /// A profile with these figures (`summarize(_:mode:weights:notes:)` makes one from launches).
    public init(
        version: Int = LoaderProfile.currentVersion, mode: LaunchMode, launches: Int, libraries: [Library], mapping: Double,
        relocation: Double, constructors: Double, programInit: Double?, total: Double, constructorsSplit: Bool, notes: [String]
    ) {
        self.version = version
        self.mode = mode
        self.launches = launches
        self.libraries = libraries
        self.mapping = mapping
        self.relocation = relocation
        self.constructors = constructors
        self.programInit = programInit
        self.total = total
        self.constructorsSplit = constructorsSplit
        self.notes = notes
    }

    /// The library named `path` (by file name), or nil.
    public func library(named path: String) -> Library? {
        let name = (path as NSString).lastPathComponent
        return libraries.first { ($0.path as NSString).lastPathComponent == name }
    }

    /// Checks what JSON cannot: the version, counts and names within bounds
    /// (figures are checked with every other figure of the file).
    func validate() -> String? {
        guard version == Self.currentVersion else {
            return "loader.version is \(version); this launchprof reads version \(Self.currentVersion)"
        }
        guard launches >= 1, libraries.count <= Self.maximumLibraries else {
            return
                "loader lists \(libraries.count) libraries over \(launches) launches (1 launch or more, at most \(Self.maximumLibraries) libraries)"
        }
        if let long = libraries.firstIndex(where: { $0.path.utf8.count > LoaderLaunch.maximumName }) {
            return "loader.libraries[\(long)].path is longer than \(LoaderLaunch.maximumName) bytes"
        }
        return notes.count > 100 ? "loader has \(notes.count) notes (at most 100)" : nil
    }
}

extension LoaderProfile {
    /// The medians of `launches` (each with the relocation weight of its
    /// objects, by path, for the estimated split).
    package static func summarize(
        _ launches: [LoaderLaunch], mode: LaunchMode, weights: [String: Double], notes: [String] = []
    ) -> LoaderProfile? {
        guard !launches.isEmpty else { return nil }
        func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
        var order: [String] = []
        var maps: [String: [Double]] = [:], inits: [String: [Double]] = [:], relocations: [String: [Double]] = [:]
        for launch in launches {
            let known = launch.objects.map { weights[$0.path] ?? 0 }
            let sum = known.reduce(0, +)
            for (index, object) in launch.objects.enumerated() {
                let path = object.path.isEmpty ? "(the program)" : object.path
                if inits[path] == nil { order.append(path) }
                if let map = object.map { maps[path, default: []].append(Double(map)) }
                inits[path, default: []].append(Double(object.initialize))
                relocations[path, default: []].append(sum > 0 ? Double(launch.relocation) * known[index] / sum : 0)
            }
        }
        let libraries = order.map { path in
            Library(
                path: path, map: maps[path].map(median), relocate: median(relocations[path] ?? [0]),
                initialize: median(inits[path] ?? [0]))
        }.sorted { ($0.total, $1.path) > ($1.total, $0.path) }
        return LoaderProfile(
            version: currentVersion, mode: mode, launches: launches.count, libraries: libraries,
            mapping: median(launches.map { Double($0.objects.compactMap(\.map).reduce(0, +)) }),
            relocation: median(launches.map { Double($0.relocation) }),
            constructors: median(launches.map { Double($0.constructors) }),
            programInit: launches.allSatisfy { $0.programInit != nil }
                ? median(launches.compactMap { $0.programInit.map { Double($0) } }) : nil,
            total: median(launches.map { Double($0.total) }),
            constructorsSplit: launches.allSatisfy(\.constructorsSplit), notes: notes)
    }
}
