import LaunchAnalysis
import Testing

@Suite("Dispatch's thread names, as the kernel truncates them")
struct DispatchThreadNameTests {
    @Test("a root queue's 15-byte tail is its label; the pool's are named so")
    func tails() {
        #expect(DispatchThreadName.rootQueueLabel(of: "oot.default-qos") == "com.apple.root.default-qos")
        #expect(DispatchThreadName.described("oot.default-qos") == "'com.apple.root.default-qos' (the Swift concurrency pool)")
        #expect(DispatchThreadName.rootQueueLabel(of: "r-initiated-qos") == "com.apple.root.user-initiated-qos")
        #expect(DispatchThreadName.described("ault-qos.overcommit".suffix(15).description) == "'-qos.overcommit'", "several labels end so")
    }

    @Test("other names stay as they are")
    func others() {
        #expect(DispatchThreadName.rootQueueLabel(of: "NIO-ELT-0-#0") == nil)
        #expect(DispatchThreadName.described("worker") == "'worker'")
        #expect(DispatchThreadName.rootQueueLabel(of: "xxx.default-qos") == nil)
        #expect(DispatchThreadName.rootQueueLabel(of: "") == nil)
    }
}
