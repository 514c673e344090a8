import FoundationEssentials

/// Finds the bundled demo files (`Resources/demo`: the demo server's data, its photos and their credits).
///
/// They are read from the checkout the binary was built from. A missing folder (the checkout moved or deleted) is
/// an error the app reports, not a crash.
public enum DemoResources {
    /// The folder holding `media.json` and `photos/`, or nil if it cannot be found.
    public static var directory: URL? {
        let demo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("demo")
        return FileManager.default.fileExists(atPath: demo.appendingPathComponent("media.json").path) ? demo : nil
    }
}
