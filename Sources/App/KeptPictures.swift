/// The pictures `TerminalPictures` encoded and keeps to send again, by key: one id space for every picture it
/// shows, and the least recently used first out.
@MainActor
struct KeptPictures {
    /// One encoded picture, when it was last used, and the form that encoded it (which shows, removes and forgets
    /// it).
    struct Entry {
        var picture: EncodedPicture
        var lastUse: UInt64
        var form: any PictureProtocol
    }

    private var entries: [TerminalPictures.Key: Entry] = [:]
    /// The encoded bytes kept.
    private(set) var bytes = 0
    private var clock: UInt64 = 0
    /// The ids taken, and the keys they are for: pictures kept, pictures being encoded, and the pane's animation.
    private var keyForID: [UInt32: TerminalPictures.Key] = [:]
    private var lastID: UInt32 = 0

    var count: Int { entries.count }
    var all: [Entry] { Array(entries.values) }

    subscript(key: TerminalPictures.Key) -> Entry? { entries[key] }

    /// The entry for `key`, marked as used now.
    mutating func use(_ key: TerminalPictures.Key) -> Entry? {
        guard entries[key] != nil else { return nil }
        clock += 1
        entries[key]!.lastUse = clock
        return entries[key]
    }

    mutating func keep(_ picture: EncodedPicture, for key: TerminalPictures.Key, form: any PictureProtocol) {
        clock += 1
        entries[key] = Entry(picture: picture, lastUse: clock, form: form)
        bytes += picture.bytes.count
        keyForID[picture.id] = key
    }

    /// Removes `key`'s entry and frees its id; returns it.
    mutating func forget(_ key: TerminalPictures.Key) -> Entry? {
        guard let entry = entries.removeValue(forKey: key) else { return nil }
        bytes -= entry.picture.bytes.count
        release(entry.picture.id, of: key)
        return entry
    }

    /// Removes every entry and frees their ids (not those of pictures being encoded, nor the animation's); returns
    /// them.
    mutating func removeAll() -> [Entry] {
        let all = Array(entries.values)
        for (key, entry) in entries { release(entry.picture.id, of: key) }
        entries.removeAll()
        bytes = 0
        return all
    }

    /// The key a kept picture's id is for.
    func key(ofID id: UInt32) -> TerminalPictures.Key? {
        keyForID[id].flatMap { entries[$0] == nil ? nil : $0 }
    }

    /// The keys not in `keep`, least recently used first.
    func oldestFirst(except keep: Set<TerminalPictures.Key>) -> [TerminalPictures.Key] {
        entries.filter { !keep.contains($0.key) }.sorted { $0.value.lastUse < $1.value.lastUse }.map(\.key)
    }

    /// Takes a fresh id for `key`'s picture in the range `form` carries (`PictureProtocol.id(after:)`), trying at
    /// most `tries` ids; nil when all those are taken (never in practice: far fewer are kept than there are).
    mutating func newID(for key: TerminalPictures.Key, in form: any PictureProtocol, tries: Int) -> UInt32? {
        var id = lastID
        for _ in 0..<tries {
            id = form.id(after: id)
            guard keyForID[id] == nil else { continue }
            lastID = id
            keyForID[id] = key
            return id
        }
        return nil
    }

    /// Frees `id` if it is still `key`'s (a load that ended without a picture).
    mutating func release(_ id: UInt32, of key: TerminalPictures.Key) {
        if keyForID[id] == key { keyForID[id] = nil }
    }
}
