import CLaunchBenchmarkSupport
import Foundation
import Glibc

/// Demangles Swift names with the Swift runtime's own `swift_demangle`
/// (linked in: the CLI carries the runtime statically) and C++ names with
/// `__cxa_demangle`, looked up with dlsym (libstdc++ is opened if it is not
/// loaded yet). A name neither understands is returned unchanged.
package struct Demangler: Sendable {
    private typealias CxaDemangle =
        @convention(c) (
            UnsafePointer<CChar>?, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?, UnsafeMutablePointer<Int32>?
        ) -> UnsafeMutablePointer<CChar>?

    private static let cxaDemangle: CxaDemangle? = symbol("__cxa_demangle", library: "libstdc++.so.6")

    private static func symbol<T>(_ name: String, library: String) -> T? {
        var address = dlsym(nil, name)  // RTLD_DEFAULT: everything loaded

        if address == nil, let handle = dlopen(library, RTLD_NOW | RTLD_LOCAL) { address = dlsym(handle, name) }
        guard let address else { return nil }
        return unsafeBitCast(address, to: T.self)
    }

    package init() {}

    /// The readable form of `name`.
    package func demangle(_ name: String) -> String {
        if Self.isSwift(name), let text = name.withCString({ lp_swift_demangle($0, strlen($0)) }) {
            defer { free(text) }
            return String(cString: text)
        }
        if name.hasPrefix("_Z"), let demangle = Self.cxaDemangle {
            var status: Int32 = 0
            if let text = name.withCString({ demangle($0, nil, nil, &status) }), status == 0 {
                defer { free(text) }
                return String(cString: text)
            }
        }
        return name
    }

    private static func isSwift(_ name: String) -> Bool {
        name.hasPrefix("$s") || name.hasPrefix("_$s") || name.hasPrefix("$S") || name.hasPrefix("_T0")
    }
}
