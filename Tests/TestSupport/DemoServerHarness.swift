import DemoServer
import Foundation

/// The bundled demo data (`Resources/demo`), as the demo server reads it.
public let demoData = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../Resources/demo").standardized

/// Starts the demo server on 127.0.0.1, runs `body`, and stops the server on every way out.
public func withDemoServer<T>(_ configuration: DemoServer.Configuration = .init(),
                              _ body: (DemoServer) async throws -> T) async throws -> T {
    let server = try await DemoServer.start(dataDirectory: demoData, configuration: configuration)
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}
