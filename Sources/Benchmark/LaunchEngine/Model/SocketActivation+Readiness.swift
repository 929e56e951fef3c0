extension SocketActivation {
    /// The one rule between a launch on demand and a ready probe: the run is
    /// ready when the first request's response is whole (`response`), so no
    /// other probe may be asked for with it. The flags, the config file and
    /// the session each check it through here, with this wording.
    public static func allows(ready probe: ReadyProbe?) -> Bool { probe == nil || probe == .response }

    /// Why another probe is refused, for the messages of all three.
    public static let readinessRule = "decides readiness itself (the first request's whole response)"
}
