import Foundation

/// Finds the bundled demo files (`Resources/demo`: the demo server's data, its photos and their credits).
///
/// SwiftPM copies them beside the built executable; when the binary has been moved away from its build folder,
/// the checkout's own `Resources/demo` is used. Unlike `Bundle.module`, a missing folder is an error the app can
/// report, not a crash.
public enum DemoResources {
    /// The folder holding `media.json` and `photos/`, or nil if it cannot be found.
    public static var directory: URL? {
        var candidates: [URL] = []
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        for bundle in ["ThumbTable_DemoResources.resources", "ThumbTable_DemoResources.bundle"] {
            candidates.append(executable.deletingLastPathComponent().appendingPathComponent(bundle)
                .appendingPathComponent("demo"))
            candidates.append(Bundle.main.bundleURL.appendingPathComponent(bundle).appendingPathComponent("demo"))
        }
        candidates.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("demo"))
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("media.json").path) }
    }
}
