import CLaunchProfSpawn
import Glibc
import LaunchSupport

/// The socket one audited launch reports to: the audit library sends it
/// the receiving end of its channel (SCM_RIGHTS), whose datagrams carry the
/// kernel's timestamps. Owns both descriptors and the socket's file.
package final class LoaderChannel {
    /// The socket's path (LAUNCHPROF_AUDIT_SOCKET).
    let path: String
    private let listener: FileDescriptor

    /// Most datagrams and bytes read from one channel: a launch of a few
    /// hundred libraries writes a few thousand lines.
    package static let maximumDatagrams = 100_000
    package static let maximumBytes = 16 << 20

    init(path: String) throws(LoaderAuditError) {
        let fd = lp_audit_listen(path)
        guard fd >= 0 else { throw .socket(reason: "\(path): \(String(cString: strerror(errno)))") }
        self.path = path
        listener = FileDescriptor(fd)
    }

    deinit {
        listener.close()
        unlink(path)
    }

    /// The datagrams of the channel `pid` handed over last (an exec keeps the
    /// pid and hands over again: the last is the program's); nil when it
    /// handed none over. Hand-overs of other processes (its children inherit
    /// LD_AUDIT) are closed unread.
    func datagrams(from pid: Int32, source: String) throws(LoaderAuditError) -> [LoaderLaunch.Datagram]? {
        var chosen: FileDescriptor?
        var text = [UInt8](repeating: 0, count: 64)
        for _ in 0..<1024 {
            var received: Int32 = -1
            let length = text.withUnsafeMutableBytes { lp_audit_receive_channel(listener.rawValue, $0.baseAddress, $0.count, &received) }
            guard length >= 0 else { break }
            let channel = received >= 0 ? FileDescriptor(received) : nil
            let words = String(decoding: text[..<length], as: UTF8.self).split(separator: " ")
            if words.count == 2, words[0] == "LPA1", Int32(words[1]) == pid, let channel { chosen = channel }
        }
        guard let chosen else { return nil }
        return try Self.read(chosen, source: source)
    }

    /// Every datagram waiting on `channel`, bounded.
    package static func read(_ channel: FileDescriptor, source: String) throws(LoaderAuditError) -> [LoaderLaunch.Datagram] {
        var datagrams: [LoaderLaunch.Datagram] = []
        var bytes = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            var stamp: UInt64 = 0
            var truncated: Int32 = 0
            let length = buffer.withUnsafeMutableBytes {
                lp_audit_receive_stamped(channel.rawValue, $0.baseAddress, $0.count, &stamp, &truncated)
            }
            guard length >= 0 else { break }
            guard truncated == 0 else { throw .malformed(source: source, problem: "a datagram longer than 1 MiB") }
            bytes += length
            guard datagrams.count < maximumDatagrams, bytes <= maximumBytes else {
                throw .malformed(
                    source: source, problem: "more than \(maximumDatagrams) datagrams or \(maximumBytes >> 20) MiB (at most that is read)")
            }
            datagrams.append(LoaderLaunch.Datagram(bytes: Array(buffer[..<length]), stamp: stamp))
        }
        return datagrams
    }
}
