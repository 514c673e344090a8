import Pixels

/// The kitty graphics commands the program sends: an upload as a virtual placement, in chunks, animation frames, and
/// deletes.
public enum KittyCommands {
    /// The largest base64 payload in one command, as the protocol asks (a multiple of 4).
    public static let chunkSize = 4096

    /// How loudly the terminal answers: `q=1` keeps errors (an image it rejects), `q=2` is silent.
    public enum Quiet: Int, Sendable {
        case errorsOnly = 1
        case silent = 2
    }

    /// Uploads `bitmap` as image `id` with a virtual placement of `columns` x `rows` cells (`a=T,U=1`), for
    /// Unicode placeholders, or (`virtual` false) placed at the cursor over that many cells without moving it
    /// (`a=T,C=1`): one command per 4096-byte base64 chunk, the keys on the first, `m=1` on all but the last. The
    /// pixels go as `KittyPayload` encodes them (compressed where it pays).
    public static func upload(_ bitmap: Bitmap, id: UInt32, columns: Int, rows: Int, virtual: Bool = true,
                              quiet: Quiet = .errorsOnly,
                              encoding: KittyPayload.Encoding = KittyPayload.preferred) -> [[UInt8]] {
        let pixels = KittyPayload(bitmap, encoding: encoding)
        let keys = "a=T,\(virtual ? "U=1" : "C=1"),\(pixels.keys),i=\(id),c=\(columns),r=\(rows)"
            + ",q=\(quiet.rawValue)"
        return chunked(keys, payload: Base64.encode(pixels.bytes), quiet: quiet)
    }

    /// Uploads `bitmap` as image `id` without showing it (`a=t`), for direct placements (`place`): chunked as
    /// `upload` is.
    public static func transmit(_ bitmap: Bitmap, id: UInt32, quiet: Quiet = .errorsOnly,
                                encoding: KittyPayload.Encoding = KittyPayload.preferred) -> [[UInt8]] {
        let pixels = KittyPayload(bitmap, encoding: encoding)
        return chunked("a=t,\(pixels.keys),i=\(id),q=\(quiet.rawValue)", payload: Base64.encode(pixels.bytes),
                       quiet: quiet)
    }

    /// Shows image `id` at the cursor over `columns` x `rows` cells as placement `placement`, the cursor left
    /// where it was (`C=1`); the same ids again move the placement instead of adding one.
    public static func place(id: UInt32, placement: UInt32, columns: Int, rows: Int,
                             quiet: Quiet = .errorsOnly) -> [UInt8] {
        command("a=p,i=\(id),p=\(placement),c=\(columns),r=\(rows),C=1,q=\(quiet.rawValue)", payload: [])
    }

    /// Adds `bitmap` to image `id` as a new animation frame (`a=f`), or (`editing`) writes it over frame `editing`
    /// (1-based, `r=`): chunked as `upload` is. The frames are shown by `showFrame`, on the program's clock.
    public static func frame(_ bitmap: Bitmap, id: UInt32, editing: Int? = nil, quiet: Quiet = .errorsOnly,
                             encoding: KittyPayload.Encoding = KittyPayload.preferred) -> [[UInt8]] {
        let pixels = KittyPayload(bitmap, encoding: encoding)
        // An edit replaces the frame's pixels (X=1) instead of blending them over it.
        let edit = editing.map { ",r=\($0),X=1" } ?? ""
        return chunked("a=f,i=\(id)\(edit),\(pixels.keys),q=\(quiet.rawValue)", payload: Base64.encode(pixels.bytes),
                       quiet: quiet)
    }

    /// Makes frame `frame` (1-based: the image's own data is the first) the one image `id` shows (`a=a,c=`), the
    /// terminal's own player stopped (`s=1`): the program's clock says when.
    public static func showFrame(id: UInt32, frame: Int) -> [UInt8] {
        command("a=a,i=\(id),s=1,c=\(frame),q=2", payload: [])
    }

    /// Deletes one placement of image `id` and keeps the image's data for the next (`a=d,d=i`).
    public static func delete(id: UInt32, placement: UInt32) -> [UInt8] {
        command("a=d,d=i,i=\(id),p=\(placement),q=2", payload: [])
    }

    /// `keys` on the first of the payload's 4096-byte chunks, `m=1` on all but the last.
    private static func chunked(_ keys: String, payload: [UInt8], quiet: Quiet) -> [[UInt8]] {
        var commands: [[UInt8]] = []
        var start = 0
        repeat {
            let end = min(start + chunkSize, payload.count)
            let more = end < payload.count ? 1 : 0
            let control = start == 0 ? "\(keys),m=\(more)" : "m=\(more),q=\(quiet.rawValue)"
            commands.append(command(control, payload: payload[start..<end]))
            start = end
        } while start < payload.count
        return commands
    }

    /// Deletes image `id`, its placements and its data (`a=d,d=I`); also ends an upload of it left unfinished.
    public static func delete(id: UInt32) -> [UInt8] {
        command("a=d,d=I,i=\(id),q=2", payload: [])
    }

    static func command(_ control: String, payload: ArraySlice<UInt8>) -> [UInt8] {
        var bytes: [UInt8] = [0x1B, UInt8(ascii: "_"), UInt8(ascii: "G")] + Array(control.utf8)
        if !payload.isEmpty {
            bytes.append(UInt8(ascii: ";"))
            bytes += payload
        }
        bytes += [0x1B, UInt8(ascii: "\\")]
        return bytes
    }
}
