/// A suite that measures a package's sample server with launchprof, as a
/// user would: the launchprof built at the repository's root (`swift build`
/// there first) and the sample built beside the test bundle. Its helpers
/// are in `SampleLaunchTesting+Running.swift`.
public protocol SampleLaunchTesting {
    /// The sample's executable, "vapor-launch-sample" for one; also the
    /// prefix of the suite's scratch folders.
    static var sampleName: String { get }
}
