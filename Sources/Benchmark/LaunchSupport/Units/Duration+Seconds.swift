extension Duration {
    /// The duration in seconds, as flags and config files state durations.
    package var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
