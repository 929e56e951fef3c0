import LaunchProfServerSupport
import Testing

/// The `Date` header of a server on an inherited socket, in RFC 9110's
/// IMF-fixdate, as the frameworks' own (internal) date caches write it.
@Suite("HTTPDate")
struct HTTPDateTests {
    @Test("IMF-fixdate: the epoch, a leap day, the last second of a year")
    func format() {
        #expect(HTTPDate.format(0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.format(951_782_400) == "Tue, 29 Feb 2000 00:00:00 GMT")
        #expect(HTTPDate.format(1_767_225_599) == "Wed, 31 Dec 2025 23:59:59 GMT")
    }

    @Test("now: an IMF-fixdate, 29 characters ending in GMT")
    func now() {
        let date = HTTPDate()
        let first = date.now
        #expect(first.hasSuffix(" GMT") && first.count == 29, "\(first)")
    }
}
