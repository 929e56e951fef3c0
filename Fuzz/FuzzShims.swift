/// What the trace reader's fuzz build leaves out of the harness: the
/// Chrome export's sample track symbolizes through the whole profiling
/// stack (and reads module files), which the ELF symbol table target fuzzes
/// on its own; the version string lives in the results model.
extension ChromeEventList {
    mutating func addSamples() {}
}

let launchprofVersion = "fuzz"
