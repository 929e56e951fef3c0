// lp-hello-traced: hello-world that links LaunchProf and records one
// milestone. Compared with lp-hello-plain by Scripts/compare/compare-launch-overhead.sh
// to measure what linking the tracer adds to a launch.
import LaunchProf

LaunchTracker.recordMilestone("hello")
print("hello, world")
