/// The files a launch reads from disk before the program's own code runs:
/// the executable (or script and its interpreter), the ELF interpreter and
/// every shared library the dynamic loader maps. Cold runs evict these.
package struct LaunchFileSet: Sendable, Equatable {
    /// The file that is executed (the script, for a `#!` script), canonical.
    package var program: String
    /// Every file of the set as a canonical path (symlinks resolved), the
    /// program first, each once.
    package var files: [String]
    /// The symlinks followed to reach `files` (e.g. /lib64/ld-linux-x86-64.so.2).
    /// Evicting a file evicts it under every name, so these are informational.
    package var symlinks: [String]
    /// The ELF interpreter (PT_INTERP), or a script's `#!` interpreter, canonical.
    package var interpreter: String?
    /// A static executable: no interpreter and no shared libraries.
    package var isStaticallyLinked: Bool
    /// The program is a `#!` script.
    package var isScript: Bool

    /// A file set with these contents; `SharedLibraryResolver` makes them.
    package init(
        program: String, files: [String], symlinks: [String] = [], interpreter: String? = nil,
        isStaticallyLinked: Bool = false, isScript: Bool = false
    ) {
        self.program = program
        self.files = files
        self.symlinks = symlinks
        self.interpreter = interpreter
        self.isStaticallyLinked = isStaticallyLinked
        self.isScript = isScript
    }

    /// Adds files (and the symlinks that led to them) not yet in the set.
    mutating func add(_ paths: [String], symlinks links: [String] = []) {
        for path in paths where !files.contains(path) { files.append(path) }
        for link in links where !symlinks.contains(link) { symlinks.append(link) }
    }
}
