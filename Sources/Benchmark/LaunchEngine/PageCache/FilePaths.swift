import Glibc

/// Path helpers shared by the resolver and the page-cache code.
package enum FilePaths {
    /// The path with every symlink and `.`/`..` resolved, or nil when it does not exist.
    package static func canonical(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The directory part of `path` ("/" for a file at the root, "." for a bare name).
    package static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Whether `path` is itself a symbolic link.
    package static func isSymlink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// The chain of symlinks from `path` to a file that is not one, `path`
    /// first when it is a link (e.g. /lib64/ld-linux-x86-64.so.2). Links in
    /// parent directories (/bin -> usr/bin) are resolved by `canonical`, not listed.
    package static func symlinkChain(_ path: String) -> [String] {
        var chain: [String] = [], current = path
        for _ in 0..<40 where isSymlink(current) {
            chain.append(current)
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count > 0 else { break }
            let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = target.hasPrefix("/") ? target : directory(of: current) + "/" + target
        }
        return chain
    }
}
