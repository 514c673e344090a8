import Pixels

/// Allocates the bytes of a `width` x `height` RGBA bitmap and lets a C decoder write straight into them.
///
/// The storage starts uninitialised: `fill` must write every byte or throw (then the storage is dropped).
func makeBitmap(width: Int, height: Int,
                fill: (UnsafeMutableRawBufferPointer) throws(DecodeError) -> Void) throws(DecodeError) -> Bitmap {
    var failure: DecodeError?
    let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
        do throws(DecodeError) {
            try fill(UnsafeMutableRawBufferPointer(buffer))
        } catch {
            failure = error
        }
        count = buffer.count
    }
    if let failure { throw failure }
    return Bitmap(width: width, height: height, pixels: pixels)
}
