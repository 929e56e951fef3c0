// InheritedSocketError (and HTTPDate) live in LaunchProfServerSupport, shared
// with the other framework integration; re-exported so that LaunchProfHummingbird's
// users catch it without importing that module.
@_exported import LaunchProfServerSupport
