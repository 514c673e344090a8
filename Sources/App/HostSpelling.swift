#if canImport(Glibc)
import Glibc
#endif

/// A host name in ASCII, as a browser sends it: a label in other scripts becomes its punycode (`xn--…`), which shows
/// a look-alike for what it is ("аpple.com" with a Cyrillic а is "xn--pple-43d.com").
///
/// The IDNA2008 conversion is libidn2's (`idn2_to_ascii_8z`), the library libcurl itself uses for such hosts, loaded
/// on first use; libcurl's own CURLU_PUNYCODE (7.88) answers "out of memory" in the 7.88.1 this runs on.
enum HostSpelling {
    private typealias ToASCII = @convention(c) (UnsafePointer<CChar>, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
                                                Int32) -> Int32

    /// libidn2's `IDN2_NONTRANSITIONAL`: the mapping browsers use (ß stays ß, not ss).
    private static let nontransitional: Int32 = 4

    private static let toASCII: ToASCII? = {
        guard let library = dlopen("libidn2.so.0", RTLD_NOW | RTLD_LOCAL),
              let symbol = dlsym(library, "idn2_to_ascii_8z") else { return nil }
        return unsafeBitCast(symbol, to: ToASCII.self)
    }()

    /// `host` in ASCII; nil when libidn2 is missing or refuses the name (not a valid IDNA host).
    static func ascii(_ host: String) -> String? {
        guard let toASCII else { return nil }
        var output: UnsafeMutablePointer<CChar>?
        guard toASCII(host, &output, nontransitional) == 0, let output else { return nil }
        defer { free(output) }
        return String(cString: output)
    }
}
