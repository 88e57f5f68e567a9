import HeraldTestSupport
import Postgres
import Testing

/// The async client: calls from many tasks, a refused connection, a connection the server drops.
@Suite(.timeLimit(.minutes(2)))
struct PostgresClientTests {
    @Test func callsFromManyTasksAllRun() async throws {
        let client = try await PostgresClient.connect(try PostgresTestServer.makeDatabase())
        try await client.run("CREATE TABLE t (n bigint PRIMARY KEY)")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 0..<50 {
                group.addTask { try await client.run("INSERT INTO t VALUES ($1)", [.bigint(Int64(n))]) }
            }
            try await group.waitForAll()
        }
        let sum = try await client.transaction { connection throws(PostgresError) in
            try connection.query("SELECT sum(n) FROM t").first?.int(0)
        }
        #expect(sum == (0..<50).reduce(0, +))
    }

    @Test func aServerThatCannotBeReachedIsAConnectError() async throws {
        let error = await #expect(throws: PostgresError.self) {
            _ = try await PostgresClient.connect("host=/nonexistent-herald-dir port=5432 user=herald connect_timeout=5")
        }
        #expect(error?.operation == "connect" && error?.sqlState == nil)
        #expect(error?.message.contains("/nonexistent-herald-dir/.s.PGSQL.5432") == true)
    }

    @Test func aDroppedConnectionIsReportedThenOpenedAgain() async throws {
        let conninfo = try PostgresTestServer.makeDatabase()
        let client = try await PostgresClient.connect(conninfo)
        let backend = try #require(try await client.query("SELECT pg_backend_pid()").first?.int(0))
        let admin = try await PostgresClient.connect(conninfo)
        // With a timeout it returns once the session has ended, not when it was signalled.
        let ended = try await admin.query("SELECT pg_terminate_backend($1, 10000)", [.int(Int32(backend))])
        #expect(try ended.first?.bool(0) == true)

        let error = await #expect(throws: PostgresError.self) { try await client.query("SELECT 1") }
        #expect(error?.connectionLost == true, "\(String(describing: error))")
        #expect(error?.description.contains("(connection lost)") == true)
        let again = try #require(try await client.query("SELECT pg_backend_pid()").first?.int(0))
        #expect(again != backend, "a new session")
    }
}
