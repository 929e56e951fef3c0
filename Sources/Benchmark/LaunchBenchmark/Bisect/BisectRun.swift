import Foundation
import Glibc
import LaunchEngine
import LaunchReports
import LaunchSupport

/// One bisect under way: the builds it made, the steps it took, and the
/// gate of each question (`BisectSession` drives it, `BisectSearch` asks).
struct BisectRun {
    /// Why a step stops the whole bisect.
    enum Stop: Error {
        case interrupted
        case usage(String)
    }

    /// A commit's build, or why there is none.
    enum Built {
        case made(RevisionBuild)
        case failed(String)
    }

    let session: BisectSession
    let builds: RevisionBuilds
    let range: BisectRange
    let interrupt: InterruptMonitor
    let note: (String) -> Void
    /// Builds made or reused, by commit.
    var built: [String: RevisionBuild] = [:]
    /// Commits whose build failed, with why.
    var failed: [String: String] = [:]
    /// The worktrees this bisect added (removed at the end unless kept).
    var created: [String] = []
    private(set) var steps: [BisectStep] = []
    /// Each step's gate, by step number.
    var gates: [Int: GateDocument] = [:]
    var effectStep: Int?

    init(session: BisectSession, builds: RevisionBuilds, range: BisectRange, interrupt: InterruptMonitor, note: @escaping (String) -> Void)
    {
        self.session = session
        self.builds = builds
        self.range = range
        self.interrupt = interrupt
        self.note = note
    }

    /// Builds the good and the bad revision: without both there is nothing to search.
    mutating func prepare() throws(BisectError) {
        for (flag, commit) in [("--good", range.good), ("--bad", range.bad)] {
            let result: Built
            do {
                result = try build(commit)
            } catch .interrupted {
                throw BisectError(status: .interrupted, message: "interrupted while building \(flag) \(commit.hash.prefix(12))")
            } catch {
                throw BisectError(status: .launchFailed, message: "\(error)")
            }
            if case .failed(let reason) = result {
                throw BisectError(status: .launchFailed, message: "\(flag) \(commit.line): \(reason); nothing to bisect without it")
            }
        }
    }

    /// `commit` built (or its cached build), or why it could not be.
    mutating func build(_ commit: BisectCommit) throws(Stop) -> Built {
        if let done = built[commit.hash] { return .made(done) }
        if let reason = failed[commit.hash] { return .failed(reason) }
        if interrupt.isInterrupted { throw .interrupted }
        do {
            let made = try builds.build(commit.hash) { note($0) }
            built[commit.hash] = made
            if made.reused {
                note("\(commit.hash.prefix(12)): reusing the build in \(made.directory)")
            } else {
                created.append(made.directory)
            }
            return .made(made)
        } catch {
            if case .interrupted = error { throw .interrupted }
            if interrupt.isInterrupted { throw .interrupted }
            let reason =
                if case .buildFailed(_, _, let status, let log, _) = error { "the build failed (\(status); its log is \(log))" } else {
                    error.description
                }
            failed[commit.hash] = reason
            return .failed(reason)
        }
    }

    /// Measures what `question` asks.
    mutating func answer(_ question: BisectQuestion) throws(Stop) -> BisectAnswer {
        let (base, head) = sides(of: question)
        let longer = question == .confirmLonger || question == BisectQuestion.testLonger(question.index ?? -1)
        return try gate(kind: question.kind, base: base, head: head, longer: longer)
    }

    /// The first slow commit against its parent, when the search did not
    /// gate that pair itself; failing that, the effect is taken from the step
    /// that decided it.
    mutating func measureEffect(of index: Int, lastGood: Int) throws(Stop) {
        guard index > 0, lastGood == index - 1 else { return }
        let answer = try gate(kind: "effect", base: range.commits[index - 1], head: range.commits[index], longer: false)
        if case .verdict = answer, let number = steps.last?.number, gates[number]?.verdict != nil { effectStep = number }
    }

    /// The Why of the first slow commit: its effect's gate (`effectOrigin`)
    /// explained when it regressed, with traced runs of both sides now
    /// (`GateSession/explain`); what stops it is a note, never the answer.
    mutating func explainEffect(of index: Int) {
        guard session.settings.whyRuns > 0, !interrupt.isInterrupted, let (number, _) = effectOrigin(of: index),
            let document = gates[number], document.verdict == .regressed, number >= 1, number <= steps.count
        else { return }
        let step = steps[number - 1]
        guard let baseBuild = built[step.base.hash], let headBuild = built[step.head.hash] else { return }
        note("the Why: \(step.head.hash.prefix(12)) against \(step.base.hash.prefix(12)), more runs of both")
        var gate = GateSession(
            base: target(baseBuild, name: "base"), head: target(headBuild, name: "head"), settings: session.settings)
        gate.interrupt = interrupt
        gate.spawner = builds.spawner
        do {
            gates[number]?.why = try gate.explain(document)
        } catch {
            note("the Why: \(error.message)")
        }
    }

    /// Removes the worktrees this bisect added, unless they are kept.
    func cleanUp() {
        guard !session.keepBuilds else { return }
        for directory in created {
            builds.removeWorktree(directory)
            unlink(directory + ".built")
            unlink(directory + ".log")
        }
    }

    private func sides(of question: BisectQuestion) -> (base: BisectCommit, head: BisectCommit) {
        switch question {
        case .confirm, .confirmLonger: (range.good, range.bad)
        case .test(let index), .testLonger(let index): (range.good, range.commits[index])
        case .againstBad(let index): (range.commits[index], range.bad)
        }
    }

    private mutating func gate(kind: String, base: BisectCommit, head: BisectCommit, longer: Bool) throws(Stop) -> BisectAnswer {
        let started = ContinuousClock.now
        let number = steps.count + 1
        func skip(_ reason: String) -> BisectAnswer {
            let seconds = (ContinuousClock.now - started).seconds
            note("step \(number) (\(kind)): \(head.hash.prefix(12)) \(kind.hasPrefix("test") ? "skipped" : "not measured"): \(reason)")
            steps.append(
                BisectStep(
                    number: number, kind: kind, head: head, base: base, verdict: nil, skipped: reason, look: nil, summary: reason,
                    seconds: seconds, measuring: 0))
            return .untestable(reason)
        }
        note("step \(number) (\(kind)): \(head.line) against \(base.hash.prefix(12))\(longer ? ", with a longer budget" : "")")
        let baseBuild: RevisionBuild
        let headBuild: RevisionBuild
        switch try build(base) {
        case .made(let made): baseBuild = made
        case .failed(let reason): return skip("the base \(base.hash.prefix(12)): \(reason)")
        }
        switch try build(head) {
        case .made(let made): headBuild = made
        case .failed(let reason): return skip(reason)
        }
        var settings = session.settings
        // The Why is asked once, of the answer's gate (`explainEffect`).
        settings.whyRuns = 0
        if longer {
            if let time = settings.maxTime { settings.maxTime = time * session.longerFactor }
            settings.maxRuns = min(settings.maxRuns * session.longerFactor, 1_000_000)
        }
        var gate = GateSession(base: target(baseBuild, name: "base"), head: target(headBuild, name: "head"), settings: settings)
        gate.interrupt = interrupt
        gate.spawner = builds.spawner
        let document: GateDocument
        do {
            document = try gate.runSynchronously()
        } catch {
            if error.status == .usage { throw .usage(error.message) }
            if interrupt.isInterrupted { throw .interrupted }
            return skip("\(error.message)")
        }
        if document.exitStatus == LaunchExitStatus.interrupted.rawValue || interrupt.isInterrupted { throw .interrupted }
        guard let verdict = document.verdict else { return skip("a launch failed: \(document.stop)") }
        let seconds = (ContinuousClock.now - started).seconds
        note("step \(number) (\(kind)): \(document.summary)")
        steps.append(
            BisectStep(
                number: number, kind: kind, head: head, base: base, verdict: verdict, skipped: nil, look: document.looks.last,
                summary: document.summary, seconds: seconds, measuring: document.elapsed))
        gates[number] = document
        return .verdict(verdict)
    }

    private func target(_ build: RevisionBuild, name: String) -> LaunchTarget {
        var arguments = session.command
        arguments[0] = build.program(arguments[0])
        var target = LaunchTarget(
            name: name, arguments: arguments, environment: session.environment, workingDirectory: build.directory, ready: session.ready)
        target.activation = session.activation
        return target
    }
}
