/// A deterministic table of request paths to handler numbers: real
/// allocation and hashing, so the launch has some work to measure.
struct RouteTable {
    private var handlers: [String: Int] = [:]

    init(count: Int) {
        handlers.reserveCapacity(count)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for number in 0..<count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            handlers["/api/v1/item/\(state >> 40)/\(number)"] = number
        }
    }

    var count: Int { handlers.count }
}
