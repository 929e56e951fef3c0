/// What is wrong with a state file's bytes.
enum StateFileProblem: Error, Equatable {
    case corrupt(String)
    case unsupportedFormat(UInt32)
}
