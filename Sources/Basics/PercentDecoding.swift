/// `%XX` escapes decoded, as Foundation's `removingPercentEncoding` did: nil when an escape is malformed or the
/// bytes are not UTF-8.
extension StringProtocol {
    public var percentDecoded: String? {
        var bytes: [UInt8] = []
        var utf8 = Array(self.utf8)[...]
        while let byte = utf8.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard utf8.count >= 2, let high = utf8.popFirst()!.hexDigitValue, let low = utf8.popFirst()!.hexDigitValue
            else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}

extension UInt8 {
    /// The value of an ASCII hexadecimal digit (`0`-`9`, `a`-`f`, `A`-`F`), or nil for any other byte: for the
    /// `%XX` escapes of URLs and paths.
    public var hexDigitValue: UInt8? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): self - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): self - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
