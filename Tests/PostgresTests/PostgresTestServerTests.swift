import Foundation
import HeraldTestSupport
import Postgres
import Testing

/// The harness itself: a test server goes away with the process that started it.
@Suite(.timeLimit(.minutes(2)))
struct PostgresTestServerTests {
    @Test func theServerStopsAndItsDirectoryGoesWhenItsStandardInputEnds() throws {
        let server = try PostgresTestServer.start()
        let directory = server.directory
        #expect(directory.hasPrefix("/tmp/herald-pg-"))
        let connection = try PostgresConnection(server.conninfo)
        #expect(try connection.query("SELECT current_user").first?.string(0) == "herald")
        #expect(connection.serverVersion >= 150_000)

        #expect(server.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: directory))
        #expect(throws: PostgresError.self) { try connection.query("SELECT 1") }
        let error = try #require(throws: PostgresError.self) { try PostgresConnection(server.conninfo) }
        #expect(error.operation == "connect")
    }
}
