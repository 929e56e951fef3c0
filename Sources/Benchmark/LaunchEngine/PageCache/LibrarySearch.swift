import Glibc
import LaunchSupport

/// Resolves DT_NEEDED names by reading ELF files, for loaders that cannot be
/// asked (musl's) and as a cross-check of `LoaderTrace`.
///
/// Follows the loader's order: DT_RPATH (only when there is no DT_RUNPATH),
/// LD_LIBRARY_PATH, DT_RUNPATH, then the default directories (multiarch
/// first). It does not read /etc/ld.so.cache, so a library only reachable
/// through ldconfig's extra directories is reported as not found.
package struct LibrarySearch: Sendable {
    package var libraryPath: [String]
    package var defaultDirectories: [String]

    package init(environment: [String: String]) {
        libraryPath = (environment["LD_LIBRARY_PATH"] ?? "").split(separator: ":").map(String.init)
        let triple = Self.multiarchTriple()
        defaultDirectories = ["/lib/\(triple)", "/usr/lib/\(triple)", "/lib64", "/usr/lib64", "/lib", "/usr/lib"]
    }

    /// Every library `executable` needs, directly or through other libraries,
    /// as canonical paths in breadth-first order.
    package func libraries(of executable: String, image: ELFImage) throws(FileSetError) -> [String] {
        var found: [String] = [], seenNames = Set<String>(), queue = [(executable, image)]
        while !queue.isEmpty {
            let (object, objectImage) = queue.removeFirst()
            for name in objectImage.needed where seenNames.insert(name).inserted {
                guard let path = locate(name, neededBy: object, image: objectImage) else {
                    throw .libraryNotFound(library: name, neededBy: object)
                }
                found.append(path)
                queue.append((path, try ELFImage.readForFileSet(path: path)))
            }
        }
        return found
    }

    private func locate(_ name: String, neededBy object: String, image: ELFImage) -> String? {
        if name.contains("/") { return FilePaths.canonical(name) }
        let origin = FilePaths.directory(of: FilePaths.canonical(object) ?? object)
        let expand = { (dir: String) in dir.replacingAll("$ORIGIN", with: origin).replacingAll("${ORIGIN}", with: origin) }
        let rpath = image.runpath.isEmpty ? image.rpath.map(expand) : []
        for directory in rpath + libraryPath + image.runpath.map(expand) + defaultDirectories {
            let candidate = directory + "/" + name
            if access(candidate, F_OK) == 0, let path = FilePaths.canonical(candidate) { return path }
        }
        return nil
    }

    /// Debian's multiarch directory name for this machine, e.g. x86_64-linux-gnu.
    private static func multiarchTriple() -> String {
        var name = utsname()
        uname(&name)
        let machine = withUnsafeBytes(of: &name.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return "\(machine)-linux-gnu"
    }
}

extension String {
    /// Replaces every occurrence of `target` (without Foundation).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = "", rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
