import ArgumentParser

/// `thumbtable demo` (the default): the bundled catalog.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "demo", abstract: "Browse the bundled demo catalog (the default).")
    func run() async throws { print("demo") }
}
