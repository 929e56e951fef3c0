import Glibc

/// A private sd_notify socket: an abstract-namespace AF_UNIX datagram socket
/// the child finds in NOTIFY_SOCKET, as systemd provides to a service.
///
/// Abstract names vanish with the last descriptor, so there is no file to
/// clean up. Messages are read as systemd reads them: file descriptors sent
/// alongside (SCM_RIGHTS, e.g. `FDSTORE=1` or what `systemd-notify` attaches)
/// are accepted and closed at once, credentials are ignored.
package final class NotifySocket {
    /// The bound socket, non-blocking and close-on-exec.
    package let fd: Int32
    /// The NOTIFY_SOCKET value for the child: `@` + the abstract name.
    package let address: String

    package init() throws(SystemCallError) {
        let name = "launchprof-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        let flags = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        let fd = try Syscall.check("socket", "AF_UNIX datagram") { socket(AF_UNIX, flags, 0) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        // Abstract namespace: sun_path starts with a NUL byte, then the name.
        let nameBytes = Array(name.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in nameBytes.enumerated() { raw[1 + i] = byte }
        }
        let length = socklen_t(MemoryLayout.offset(of: \sockaddr_un.sun_path)! + 1 + nameBytes.count)
        do {
            try Syscall.check("bind", "@" + name) {
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
                }
            }
        } catch {
            Syscall.closeQuietly(fd)
            throw error
        }
        self.fd = fd
        self.address = "@" + name
    }

    deinit { Syscall.closeQuietly(fd) }

    /// Reads every pending datagram; returns true if one holds a `READY=1` line.
    package func drainReady() -> Bool {
        var ready = false
        while let message = receive() {
            if message.split(separator: "\n").contains("READY=1") { ready = true }
        }
        return ready
    }

    /// One pending datagram's text, or nil when none is waiting.
    private func receive() -> String? {
        var data = [UInt8](repeating: 0, count: 4096)
        var control = [UInt8](repeating: 0, count: 4096)
        let count: Int = data.withUnsafeMutableBytes { dataBytes in
            control.withUnsafeMutableBytes { controlBytes in
                var vector = iovec(iov_base: dataBytes.baseAddress, iov_len: dataBytes.count)
                return withUnsafeMutablePointer(to: &vector) { vectorPointer in
                    var header = msghdr()
                    header.msg_iov = vectorPointer
                    header.msg_iovlen = 1
                    header.msg_control = controlBytes.baseAddress
                    header.msg_controllen = controlBytes.count
                    let flags = Int32(MSG_DONTWAIT) | Int32(MSG_CMSG_CLOEXEC)
                    let received = (try? Syscall.check("recvmsg", address) { recvmsg(fd, &header, flags) }) ?? -1
                    if received >= 0 { Self.closeReceivedDescriptors(controlBytes, length: Int(header.msg_controllen)) }
                    return received
                }
            }
        }
        guard count >= 0 else { return nil }
        return String(decoding: data[..<count], as: UTF8.self)
    }

    /// Walks the control messages (as CMSG_FIRSTHDR/CMSG_NXTHDR would, which
    /// Swift cannot import) and closes every SCM_RIGHTS descriptor.
    private static func closeReceivedDescriptors(_ control: UnsafeMutableRawBufferPointer, length: Int) {
        let headerSize = MemoryLayout<cmsghdr>.size
        let alignment = MemoryLayout<Int>.size  // CMSG_ALIGN rounds to sizeof(size_t)
        let dataOffset = (headerSize + alignment - 1) & ~(alignment - 1)
        var offset = 0
        while offset + headerSize <= length {
            let header = control.loadUnaligned(fromByteOffset: offset, as: cmsghdr.self)
            let messageLength = Int(header.cmsg_len)
            guard messageLength >= dataOffset, offset + messageLength <= length else { return }
            if header.cmsg_level == SOL_SOCKET, header.cmsg_type == Int32(SCM_RIGHTS) {
                let descriptors = (messageLength - dataOffset) / MemoryLayout<Int32>.size
                for index in 0..<descriptors {
                    let received = control.loadUnaligned(
                        fromByteOffset: offset + dataOffset + index * MemoryLayout<Int32>.size, as: Int32.self)
                    Syscall.closeQuietly(received)
                }
            }
            offset += (messageLength + alignment - 1) & ~(alignment - 1)
        }
    }
}
