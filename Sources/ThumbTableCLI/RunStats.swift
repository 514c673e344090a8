import ArgumentParser
import Basics
import FoundationEssentials
import Pipeline
import Table

/// What `--stats-file` keeps of a run: the slots' counters and the pipeline's, in one JSON object under the
/// snake_case names the `s` overlay shows (`slot_reuses`, `wrong_paints`, `requests_started`, …), keys sorted. The file
/// has two the overlay leaves out: `loads_started` and `loads_cancelled`, the slots' own loads.
struct RunStats: Encodable, Equatable {
    var slots: SlotCounters.Snapshot
    var pipeline: PipelineCounters.Snapshot

    @MainActor
    init(table: TableController, pipeline: PipelineCounters.Snapshot) {
        self.init(slots: table.slotCounters, pipeline: pipeline)
    }

    init(slots: SlotCounters.Snapshot, pipeline: PipelineCounters.Snapshot) {
        self.slots = slots
        self.pipeline = pipeline
    }

    func encode(to encoder: any Encoder) throws {
        // One flat object, as the overlay lists them: both sets of counters encode into the same container.
        try slots.encode(to: encoder)
        try pipeline.encode(to: encoder)
    }

    /// The file's text: snake_case names, sorted, one counter a line.
    func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self) + Data("\n".utf8)
    }

    /// Writes the file at `path`; a failure is said on stderr and ends the program with status 1.
    func write(to path: String) throws {
        do {
            try json().write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            // The run went well; only its record could not be kept: the message alone, no usage.
            Messages.error("cannot write the stats file \(path): \(fileErrorReason(error))")
            throw ExitCode.failure
        }
    }
}
