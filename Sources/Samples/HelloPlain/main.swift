// lp-hello-plain: the same hello-world as lp-hello-traced, without LaunchProf:
// the baseline of Scripts/compare/compare-launch-overhead.sh.
print("hello, world")
