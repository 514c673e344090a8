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

                """, to: .standardOutput)
        }

        static func megabytes(_ bytes: Int) -> String {
            (Double(bytes) / Double(1 << 20)).fixed(1) + " MB"
        }
    }

    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete every cached image.")
        @OptionGroup var location: Location

        func run() throws {
            let cache = try location.open()
            let before = cache.stats()
            cache.removeAll()
            Messages.write("removed \(before.entries) entries (\(Stats.megabytes(before.bytes))) from "
                           + "\(before.directory.path)\n", to: .standardOutput)
        }
    }
}
