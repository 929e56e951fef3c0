/// What the driver found for one `BisectQuestion`.
package enum BisectAnswer: Sendable, Equatable {
    /// The gate's verdict of the head against the base.
    case verdict(ChangeVerdict)
    /// The commit could not be measured: its build failed, or its program
    /// did not launch. It is skipped, as `git bisect skip` would.
    case untestable(String)
}
