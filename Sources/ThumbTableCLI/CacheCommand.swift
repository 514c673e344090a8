import ArgumentParser
import Basics
import FoundationEssentials
import Pipeline

/// `thumbtable cache stats|clear`: the disk cache of downloaded images.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache", abstract: "Show or clear the disk cache of downloaded images.",
        subcommands: [Stats.self, Clear.self])

    struct Location: ParsableArguments {
        @Option(help: "The cache folder (default: $XDG_CACHE_HOME/thumbtable, else ~/.cache/thumbtable).")
        var cacheDir: String?

        func open(forReading: Bool = false) throws -> DiskCache {
            let directory = cacheDir.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? DiskCache.defaultDirectory()
            do {
                return try DiskCache(directory: directory, forReading: forReading)
            } catch {
                // A problem with the folder, not with how the command was typed: the message alone, no usage.
                Messages.error(error.description)
                throw ExitCode.failure
            }
        }
    }

    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print where the cache is, its entries and size.")
        @OptionGroup var location: Location

        func run() throws {
            let stats = try location.open(forReading: true).stats()
            Messages.write("""
                cache:   \(stats.directory.path)
                entries: \(stats.entries)
                size:    \(Self.megabytes(stats.bytes)) of \(Self.megabytes(stats.limit))
                other:   \(stats.otherFiles == 0 ? "none" : Self.others(stats) + ", left alone")

                """, to: .standardOutput)
        }

        /// The files in the folder that are not the cache's, which it leaves alone.
        static func others(_ stats: DiskCache.Stats) -> String {
            "\(stats.otherFiles) file\(stats.otherFiles == 1 ? "" : "s") (\(megabytes(stats.otherBytes))) "
                + "that \(stats.otherFiles == 1 ? "is" : "are") not the cache's"
        }

        static func megabytes(_ bytes: Int) -> String {
            (Double(bytes) / Double(1 << 20)).fixed(1) + " MB"
        }
    }

    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete every cached image, and nothing else in the folder.")
        @OptionGroup var location: Location

        func run() throws {
            let cache = try location.open()
            let removed = cache.removeAll()
            let left = cache.stats()
            Messages.write("removed \(removed.entries) entries (\(Stats.megabytes(removed.bytes))) from "
                           + "\(cache.directory.path)"
                           + (left.otherFiles == 0 ? "" : "; left \(Stats.others(left))") + "\n", to: .standardOutput)
        }
    }
}
