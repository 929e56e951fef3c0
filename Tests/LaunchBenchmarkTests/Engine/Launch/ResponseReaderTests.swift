import Testing

@testable import LaunchAnalysis
@testable import LaunchBenchmark
@testable import LaunchEngine
@testable import LaunchReports
@testable import LaunchSupport

/// Where the client of a launch on demand finds a response's end, fed the
/// bytes in every split the network might deliver them in.
@Suite struct ResponseReaderTests {
    /// Feeds `text` in pieces of `size` bytes; the index of the piece after
    /// which the reader first said complete, or nil.
    func completesAfter(_ text: String, pieces size: Int) -> (piece: Int?, count: Int, reader: ResponseReader) {
        var reader = ResponseReader(isHTTP: true)
        let bytes = Array(text.utf8)
        var pieces = 0
        var completed: Int?
        var start = 0
        while start < bytes.count {
            reader.append(bytes[start..<min(start + size, bytes.count)])
            pieces += 1
            if completed == nil, reader.isComplete { completed = pieces }
            start += size
        }
        return (completed, pieces, reader)
    }

    @Test func chunkedResponsesEndAtTheBlankLineAfterTheLastChunk() {
        let chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n7;ext=1\r\n, world\r\n0\r\nX-Trailer: t\r\n\r\n"
        for size in 1...chunked.utf8.count {
            let (piece, count, _) = completesAfter(chunked, pieces: size)
            #expect(piece == count, "pieces of \(size): complete after piece \(String(describing: piece)) of \(count)")
        }
        let noTrailers = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
        for size in 1...noTrailers.utf8.count {
            let (piece, count, _) = completesAfter(noTrailers, pieces: size)
            #expect(piece == count, "pieces of \(size)")
        }
        let cut = completesAfter("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel", pieces: 4)
        #expect(cut.piece == nil)
        #expect(cut.reader.problemAtClose == "the connection closed before the last chunk of the response")
    }

    @Test func contentLengthAndCloseDelimitedBodies() {
        let sized = "HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nhello\n"
        for size in 1...sized.utf8.count {
            let (piece, count, _) = completesAfter(sized, pieces: size)
            #expect(piece == count)
        }
        let open = completesAfter("HTTP/1.0 200 OK\r\n\r\nall until close", pieces: 5)
        #expect(open.piece == nil && open.reader.problemAtClose == nil, "ends at close, whole")
        let empty = completesAfter("HTTP/1.1 204 No Content\r\n\r\n", pieces: 3)
        #expect(empty.piece == empty.count)
        let notHTTP = completesAfter("+OK ready\r\n\r\n", pieces: 100)
        #expect(notHTTP.reader.problem?.hasPrefix("the response is not HTTP") == true)
    }
}
