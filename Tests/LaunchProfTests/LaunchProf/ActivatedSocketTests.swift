import LaunchProf
import Testing

/// systemd's socket-activation variables as `sd_listen_fds(3)` reads them.
@Suite struct ActivatedSocketTests {
    @Test func descriptorsFromThreeNamedInOrder() {
        let sockets = ActivatedSocket.parse(listenPID: "42", listenFDs: "3", listenFDNames: "http::metrics", pid: 42)
        #expect(
            sockets == [
                ActivatedSocket(descriptor: 3, name: "http"), ActivatedSocket(descriptor: 4, name: "unknown"),
                ActivatedSocket(descriptor: 5, name: "metrics"),
            ])
        #expect(ActivatedSocket.parse(listenPID: "42", listenFDs: "1", listenFDNames: nil, pid: 42).map(\.name) == ["unknown"])
    }

    @Test func variablesMeantForAnotherProcessOrMalformedGiveNothing() {
        #expect(ActivatedSocket.parse(listenPID: "41", listenFDs: "1", listenFDNames: "x", pid: 42).isEmpty, "inherited from a parent")
        #expect(ActivatedSocket.parse(listenPID: nil, listenFDs: "1", listenFDNames: nil, pid: 42).isEmpty)
        #expect(ActivatedSocket.parse(listenPID: "42", listenFDs: "0", listenFDNames: nil, pid: 42).isEmpty)
        #expect(ActivatedSocket.parse(listenPID: "42", listenFDs: "-1", listenFDNames: nil, pid: 42).isEmpty)
        #expect(ActivatedSocket.parse(listenPID: "42", listenFDs: "two", listenFDNames: nil, pid: 42).isEmpty)
    }

    @Test func thisTestProcessWasNotActivated() {
        #expect(ActivatedSocket.inherited.isEmpty)
    }
}
