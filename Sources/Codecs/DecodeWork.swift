import FoundationEssentials

extension ImageDecoder {
    /// About how much work decoding `bytes` is, in pixels visited, read from the headers only: the pixels of the
    /// image (the first frame of an animation), or for a JPEG 64 for every block each scan visits
    /// (`JPEGScanWork`), which is what a progressive file costs. 0 when the header cannot be read (the decode then
    /// fails at once). A caller uses it to tell long decodes from short ones before starting them.
    public static func decodeWork(of bytes: some ContiguousBytes) -> Int {
        (try? header(of: bytes))?.decodeWork ?? 0
    }

    /// `decodeWork(of:)` from the header the image already holds, for a decode with `options`: the embedded
    /// thumbnail's work when that is what will be decoded (`ImageHeader.embeddedThumbnail(for:)`).
    public static func decodeWork(of image: EncodedImage, options: DecodeOptions = .init()) -> Int {
        guard let header = image.header else { return 0 }
        return header.embeddedThumbnail(for: options)?.decodeWork ?? header.decodeWork
    }
}
