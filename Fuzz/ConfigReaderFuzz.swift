/// libFuzzer entry for the launchprof.yml reader (Scripts/checks/fuzz.sh builds it
/// with the config, model, budget and statistics sources, and Yams with
/// libyaml as a module of its own).
///
/// Every input that is UTF-8 text (what `ConfigReader.read` passes on) is
/// parsed as launchprof.yml: every problem must be a ConfigError, and a
/// config that reads holds no NUL in any argument, variable or path (a NUL
/// would end an argument and inject the rest as another variable), and no
/// '=' in a variable's name.
@_cdecl("LLVMFuzzerTestOneInput")
public func configReaderFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard let text = String(validating: UnsafeBufferPointer(start: data, count: size), as: UTF8.self) else { return 0 }
    guard let config = try? ConfigReader.parse(text, file: "fuzz.yml", directory: "/nonexistent-fuzz") else { return 0 }
    for target in config.targets {
        precondition(!target.arguments.isEmpty && target.arguments.allSatisfy { $0.firstNUL == nil }, "a NUL in argv")
        for (name, value) in target.environment {
            precondition(!name.utf8.contains(0) && !value.utf8.contains(0), "a NUL in a variable")
            precondition(!name.contains("="), "'=' in a variable's name")
        }
        precondition(!(target.workingDirectory ?? "").utf8.contains(0), "a NUL in a path")
        precondition(!target.name.isEmpty, "a target without a name")
    }
    return 0
}
