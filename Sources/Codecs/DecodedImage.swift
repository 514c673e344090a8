import Pixels

/// A decoded image: the pixels to render, and what the decoder learned on the way.
///
/// The bitmap keeps straight (unpremultiplied) alpha exactly as the file has it; compositing over a background is
/// the renderer's job, not the decoder's.
public struct DecodedImage: Sendable, Equatable {
    /// The pixels, already turned upright by any EXIF orientation, possibly scaled down (see
    /// `DecodeOptions.targetSize`). For an animation, its first frame composited onto the canvas.
    public var bitmap: Bitmap
    /// The format sniffed from the bytes.
    public var format: ImageFormat
    /// The full-resolution width, in displayed orientation (after EXIF rotation), before any scaling.
    public var originalWidth: Int
    /// The full-resolution height, in displayed orientation (after EXIF rotation), before any scaling.
    public var originalHeight: Int
    /// Every frame of an animated GIF or WebP, composited onto the full canvas, in order; empty for still images
    /// and when `DecodeOptions.keepsAnimationFrames` is off. `frames[0].bitmap` is `bitmap`.
    public var frames: [AnimationFrame]
    /// A problem the decoder recovered from (a truncated JPEG drawn as far as its data goes), for the user.
    public var warning: String?
    /// The bitmap was decoded from the smaller copy the file carries (an EXIF thumbnail, a HEIF thumbnail item),
    /// which had the pixels the caller asked for; `originalWidth` and `originalHeight` are still the full image's.
    public var fromEmbeddedThumbnail = false

    public init(bitmap: Bitmap, format: ImageFormat, originalWidth: Int, originalHeight: Int,
                frames: [AnimationFrame] = [], warning: String? = nil) {
        self.bitmap = bitmap
        self.format = format
        self.originalWidth = originalWidth
        self.originalHeight = originalHeight
        self.frames = frames
        self.warning = warning
    }
}

/// One frame of an animation: the whole canvas as it looks while the frame shows, and for how long.
public struct AnimationFrame: Sendable, Equatable {
    public var bitmap: Bitmap
    /// How long the frame stays, as the file says. Many files say 0 or 10 ms and mean "as fast as the player
    /// likes"; browsers show such frames for 100 ms, and a player should do the same.
    public var delay: Duration

    public init(bitmap: Bitmap, delay: Duration) {
        self.bitmap = bitmap
        self.delay = delay
    }

    /// How long a player shows the frame: 100 ms for a delay of 10 ms or less, as browsers do, and never less than
    /// 20 ms, so that no file makes a player redraw faster than 50 times a second.
    public var displayTime: Duration {
        delay <= .milliseconds(10) ? .milliseconds(100) : max(delay, .milliseconds(20))
    }
}
