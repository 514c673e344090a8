import CZlib

/// zlib's deflate and CRC-32 over byte arrays: the only file that calls zlib.
enum Zlib {
    /// `bytes` as a zlib stream (RFC 1950) at `level` (1 fastest, 9 smallest); nil if zlib fails (out of memory).
    static func deflate(_ bytes: [UInt8], level: Int32) -> [UInt8]? {
        var size = compressBound(uLong(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(size))
        let status = output.withUnsafeMutableBufferPointer { output in
            bytes.withUnsafeBufferPointer { input in
                compress2(output.baseAddress, &size, input.baseAddress, uLong(input.count), level)
            }
        }
        guard status == Z_OK else { return nil }
        output.removeSubrange(Int(size)...)
        return output
    }

    /// The CRC-32 of `bytes` continued from `crc` (0 to start), as PNG chunks carry it.
    static func crc32(_ bytes: ArraySlice<UInt8>, continuing crc: UInt32 = 0) -> UInt32 {
        let value = bytes.withUnsafeBufferPointer { buffer in
            CZlib.crc32(uLong(crc), buffer.baseAddress, uInt(buffer.count))
        }
        return UInt32(truncatingIfNeeded: value)
    }
}
