/// The order in which a gate launches base (A) and head (B): blocks of
/// A B B A, repeated.
///
/// Why ABBA and not A B A B: in A B A B the base always runs first, so
/// anything one run leaves to the next (files in the page cache, a warm
/// branch predictor, a CPU that has just clocked up, the previous run's
/// exit still being torn down) favours one side every time. In A B B A the
/// head follows the base once and the base follows the head once, so such
/// carry-over cancels within each block; and the two sides' mean positions
/// in the block are equal (1 + 4 = 2 + 3), so a drift that is linear over
/// the block cancels too (the "ABBA" or "switchback" design of crossover
/// trials: Cochran & Cox, *Experimental Designs*, 2nd ed. 1957, §4.6;
/// Jones & Kenward, *Design and Analysis of Cross-Over Trials*, 3rd ed.
/// 2014, §4.2). Runs are paired within the block: A₁ with B₁ (base first),
/// B₂ with A₂ (head first).
package enum ABBAOrder {
    /// The side of the run at 0-based `position` of the measured sequence.
    package static func side(at position: Int) -> GateSide {
        switch position % 4 {
        case 0, 3: .base
        default: .head
        }
    }
}
