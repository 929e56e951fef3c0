/// libFuzzer entry for the background task schedule's parser
/// (BackgroundSchedule.parse), and the policy arithmetic every entry it
/// accepts goes through: the due time of a refresh, a repeating and a
/// one-off request at hostile clocks, the backoff, and the record of a
/// run's end (Scripts/checks/fuzz.sh builds it with the BackgroundTasks files the
/// parser and the policy need).
///
/// An accepted schedule is written as text and parsed again: it must come
/// back equal with nothing discarded (a file the library writes is always
/// one it reads whole), and every time the policy returns must lie within
/// the file's range.
@_cdecl("LLVMFuzzerTestOneInput")
public func scheduleFileFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let parsed: (schedule: BackgroundSchedule, discarded: [String])
    do {
        parsed = try BackgroundSchedule.parse(bytes, path: "fuzz.schedule")
    } catch {
        precondition(error.description.contains("fuzz.schedule"), "an error that does not name the file: \(error)")
        return 0
    }
    precondition(parsed.discarded.allSatisfy { $0.hasPrefix("fuzz.schedule:") }, "a diagnostic without file and line")
    let again = try! BackgroundSchedule.parse(Array(parsed.schedule.text.utf8), path: "fuzz.schedule")
    precondition(again.schedule == parsed.schedule && again.discarded.isEmpty, "the written schedule does not read back")
    exercisePolicy(parsed.schedule)
    return 0
}

private let requests: [BackgroundTaskRequest] = [
    .refresh("fuzz", every: BackgroundTaskPolicy.maximumDuration, earliestBegin: BackgroundSchedule.latestTime),
    .refresh("fuzz", every: .milliseconds(1)),
    .processing("fuzz", repeatEvery: BackgroundTaskPolicy.maximumDuration),
    .processing("fuzz"),
]
private let policies = [
    BackgroundTaskPolicy(retryDelay: BackgroundTaskPolicy.maximumDuration, maximumRetryDelay: BackgroundTaskPolicy.maximumDuration),
    BackgroundTaskPolicy(retryDelay: .milliseconds(1), maximumRetryDelay: .seconds(6 * 3600)),
]

private func exercisePolicy(_ schedule: BackgroundSchedule) {
    let range = 0...BackgroundSchedule.latestTime
    for entry in schedule.entries.values {
        for policy in policies {
            precondition(policy.backoff(failures: entry.failures) >= 0)
            for request in requests {
                precondition(request.problem == nil, "a fuzz request the library refuses: \(request)")
                for now in [Int64.min, 0, 1_764_000_000_000, BackgroundSchedule.latestTime, Int64.max] {
                    if let due = policy.dueTime(of: request, entry: entry, now: now) { precondition(range.contains(due)) }
                    for outcome in [BackgroundTaskOutcome.succeeded, .failed, .expired] {
                        let recorded = policy.recording(entry, outcome: outcome, started: now, request: request, now: now)
                        precondition(recorded.nextDue.map(range.contains) ?? true)
                        precondition((0...BackgroundSchedule.maximumFailures).contains(recorded.failures))
                    }
                }
            }
            let orphan = policy.recording(entry, outcome: .expired, started: entry.claim?.started ?? 0, request: nil, now: Int64.max)
            precondition(orphan.nextDue.map(range.contains) ?? true)
        }
    }
}
