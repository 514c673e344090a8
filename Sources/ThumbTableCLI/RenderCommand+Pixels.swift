import ArgumentParser
import Codecs
import Glibc
import Graphics
import Pipeline
import Pixels
import Terminal

/// The values of `render --graphics`: text art, or the picture in real pixels for a terminal that draws them.
enum RenderGraphics: String, CaseIterable, ExpressibleByArgument {
    case text, sixel, iterm2
}

extension RenderCommand {
    /// The cell size `render --graphics` assumes when the terminal does not give its pixels (TIOCGWINSZ).
    static let defaultCellPixels = CellPixelSize(width: 10, height: 20)

    /// Prints the picture as a sixel or an iTerm2 inline image fitted inside the box's pixels (the box in cells
    /// times the terminal's cell size), keeping its aspect ratio unless --stretch.
    func renderPixels(downloaded: [UInt8]?) throws {
        let box = self.box()
        let cell = Terminal.windowCellPixels() ?? Self.defaultCellPixels
        let fitted = PictureCeiling.box(width: box.columns * cell.width, height: box.rows * cell.height)
        let pixelBox = PixelSize(width: fitted.width, height: fitted.height)
        let decoded: DecodedImage
        do {
            decoded = try decode(downloaded) { bytes throws(DecodeError) in
                try ImageDecoder.decode(bytes, options: DecodeOptions(targetSize: pixelBox, keepsAnimationFrames: false))
            }
        } catch let failure as RenderFailure {
            Messages.error(failure.message)
            throw ExitCode.failure
        }
        if let warning = decoded.warning { Messages.error("warning: \(input): \(warning)") }
        var fit = PixelFit(imageSize: PixelSize(width: decoded.bitmap.width, height: decoded.bitmap.height), in: pixelBox)
        if stretch { fit.size = pixelBox }
        let bitmap = fit.scale(decoded.bitmap)
        var bytes: [UInt8]
        switch graphics {
        case .sixel:
            bytes = SixelEncoder.encode(bitmap)
        case .iterm2:
            let file: [UInt8]
            do {
                file = try JPEGEncoder.encode(bitmap, quality: 90)
            } catch {
                Messages.error("\(input): cannot encode the picture for iTerm2: \(error)")
                throw ExitCode.failure
            }
            let columns = (bitmap.width + cell.width - 1) / cell.width, rows = (bitmap.height + cell.height - 1) / cell.height
            bytes = ITerm2Image.sequence(file: file, columns: columns, rows: rows)
        case .text:
            preconditionFailure("text is drawn by render(downloaded:)")
        }
        // The prompt goes below the picture.
        bytes.append(UInt8(ascii: "\n"))
        do {
            try StandardStreams.write(bytes, to: STDOUT_FILENO)
        } catch {
            Messages.error("cannot write the picture to stdout: \(error)")
            throw ExitCode.failure
        }
    }
}
