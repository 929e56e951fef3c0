import LaunchBenchmark
import Testing

/// File names for `run --profile` and one-line function names.
struct ProfileNamingTests {
    @Test(arguments: [
        ("sample-app", "sample-app"),
        ("./build/release/lp-sample-app --hot-ms 20", "lp-sample-app-hot-ms-20"),
        ("hot app", "hot-app"),
        ("../../etc/passwd", "passwd"),
        ("a/b c/d", "b-c-d"),
        ("...", "target"),
        ("é ü", "target"),
        ("v1.2_beta", "v1.2_beta"),
    ])
    func targetNamesBecomeSafeFileNames(name: String, expected: String) {
        #expect(ProfileFileName.from(name) == expected)
    }

    @Test func fileNamesAreUnique() {
        #expect(ProfileFileName.unique(["a b", "a/b", "a-b", "c"]) == ["a-b", "b", "a-b-2", "c"])
        #expect(ProfileFileName.unique(["x y", "x-y", "x y "]) == ["x-y", "x-y-2", "x-y-3"])
    }

    @Test(arguments: [
        ("main", "main"),
        ("SampleApp.computeLaunchHotspot(milliseconds: Swift.Int) -> Swift.UInt64", "SampleApp.computeLaunchHotspot"),
        ("closure #1 (Swift.Int) -> () in SampleApp.main()", "closure #1 in SampleApp.main"),
        ("closure #1 ((Swift.Int) -> Swift.Bool) -> () in App.run(_: Swift.Array<Swift.Int>)", "closure #1 in App.run"),
        (
            "generic specialization <Swift.Substring, Swift.Array<Swift.Int>> of Swift._NativeDictionary._copyOrMoveAndResize(capacity: Swift.Int) -> ()",
            "generic specialization of Swift._NativeDictionary._copyOrMoveAndResize"
        ),
        ("std::vector<int>::push_back(int const&)", "std::vector::push_back"),
        ("libc.so.6+0x98109", "libc.so.6+0x98109"),
        (
            "generic specialization <Swift.String> of Swift._merge<A>(low: Swift.UnsafeMutablePointer<A>, by: (A, A) throws -> Swift.Bool) throws -> Swift.Bool",
            "generic specialization of Swift._merge"
        ),
        ("App.load(from: Swift.String) async throws -> App.Config", "App.load"),
    ])
    func functionNamesLoseTheirSignatures(name: String, expected: String) {
        #expect(FunctionName.short(name) == expected)
    }
}
