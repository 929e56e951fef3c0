import Glibc

/// Whether the machine meets a request's conditions, read from the kernel
/// as it is (the roots are parameters, so tests can stand in for /sys and
/// /proc).
public struct BackgroundConditions: Sendable, Equatable {
    /// The power supplies (`/sys/class/power_supply`).
    public var powerSupplies: String
    /// The IPv4 routing table (`/proc/net/route`).
    public var routes: String
    /// The IPv6 routing table (`/proc/net/ipv6_route`).
    public var ipv6Routes: String

    /// The real machine's.
    public init(
        powerSupplies: String = "/sys/class/power_supply", routes: String = "/proc/net/route",
        ipv6Routes: String = "/proc/net/ipv6_route"
    ) {
        self.powerSupplies = powerSupplies
        self.routes = routes
        self.ipv6Routes = ipv6Routes
    }

    /// On external power: a `Mains` (or USB) supply is online, or there is
    /// no battery at all (a desktop, a server, a container).
    public var hasExternalPower: Bool {
        guard let directory = opendir(powerSupplies) else { return true }  // no power_supply class: no battery
        defer { closedir(directory) }
        var battery = false
        var mainsOnline = false
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard !name.hasPrefix(".") else { continue }
            let type = FileText.text("\(powerSupplies)/\(name)/type")?.filter { !$0.isWhitespace } ?? ""
            switch type {
            case "Battery":
                // A peripheral's battery (a mouse) has scope Device: not the machine's.
                if FileText.text("\(powerSupplies)/\(name)/scope")?.contains("Device") != true { battery = true }
            case "Mains", "USB", "USB_C", "USB_PD":
                if FileText.text("\(powerSupplies)/\(name)/online")?.filter({ !$0.isWhitespace }) == "1" { mainsOnline = true }
            default: break
            }
        }
        return mainsOnline || !battery
    }

    /// A usable default route: an IPv4 route to 0.0.0.0/0 that is up, or an
    /// IPv6 route to ::/0 not on the loopback device.
    public var hasNetwork: Bool {
        if let table = FileText.text(routes) {
            for line in table.split(separator: "\n").dropFirst() {
                let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
                // Iface Destination Gateway Flags …; RTF_UP = 1
                guard fields.count > 7, fields[1] == "00000000", fields[7] == "00000000",
                    let flags = Int(fields[3], radix: 16), flags & 1 != 0
                else { continue }
                return true
            }
        }
        if let table = FileText.text(ipv6Routes) {
            for line in table.split(separator: "\n") {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                guard fields.count >= 10, fields[0] == "00000000000000000000000000000000", fields[1] == "00",
                    fields[9] != "lo"
                else { continue }
                return true
            }
        }
        return false
    }
}
