import CLaunchProfSupport

/// What ``Signposter/beginInterval(_:id:)`` returns and
/// ``Signposter/endInterval(_:_:)`` takes: the interval's id and category.
public struct SignpostIntervalState: Sendable {
    public let id: SignpostID
    @usableFromInline let category: UInt16

    @inlinable
    init(id: SignpostID, category: UInt16) {
        self.id = id
        self.category = category
    }
}
