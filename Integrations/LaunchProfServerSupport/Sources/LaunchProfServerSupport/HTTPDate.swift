import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The `Date` header of a response (RFC 9110's IMF-fixdate, "Sun, 06 Nov
/// 1994 08:49:37 GMT"), formatted once a second: Hummingbird's and Vapor's
/// own date caches (Vapor's `RFC1123DateCache`) are internal to them, and a
/// server on an inherited socket answers with the same headers as one the
/// framework bound.
public final class HTTPDate: Sendable {
    private let cache = Mutex<(second: Int, text: String)>((-1, ""))

    /// A cache that formats the current second when first asked for it.
    public init() {}

    /// Now, as a header value.
    public var now: String {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        let second = Int(time.tv_sec)
        return cache.withLock { cached in
            if cached.second != second { cached = (second, Self.format(second)) }
            return cached.text
        }
    }

    /// `second` (seconds since the epoch, UTC) as an IMF-fixdate; "" when
    /// the C library cannot break it down.
    public static func format(_ second: Int) -> String {
        var seconds = time_t(second)
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return "" }
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let day = days[Int(parts.tm_wday) % 7]
        let month = months[Int(parts.tm_mon) % 12]
        return "\(day), \(two(parts.tm_mday)) \(month) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
