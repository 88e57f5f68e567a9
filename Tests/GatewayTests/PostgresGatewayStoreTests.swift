import Gateway
import HeraldTestSupport
import Postgres
import Testing

/// What only the PostgreSQL store has: a schema shared by processes that start together, and a
/// server that can end a session.
@Suite(.timeLimit(.minutes(2)))
struct PostgresGatewayStoreTests {
    @Test func storesOpeningAtOnceMigrateTheSchemaOnce() async throws {
        let conninfo = try PostgresTestServer.makeDatabase()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { _ = try PostgresGatewayStore(conninfo: conninfo) } }
            try await group.waitForAll()
        }
        let versions = try PostgresConnection(conninfo).query("SELECT version FROM herald_gateway_schema")
        #expect(try versions.map { try $0.int(0) } == [PostgresGatewayStore.schemaVersion])
    }

    @Test func aSchemaNewerThanThisHeraldIsRefused() throws {
        let conninfo = try PostgresTestServer.makeDatabase()
        _ = try PostgresGatewayStore(conninfo: conninfo)
        try PostgresConnection(conninfo).run("UPDATE herald_gateway_schema SET version = 99")
        let error = try #require(throws: GatewayStoreError.self) { try PostgresGatewayStore(conninfo: conninfo) }
        guard case .database(let database) = error else {
            Issue.record("not a database error: \(error)")
            return
        }
        #expect(database.operation == "migrate" && database.message.contains("version 99"))
    }

    @Test func aLostConnectionFailsOneCallAndTheNextReconnects() async throws {
        let conninfo = try PostgresTestServer.makeDatabase()
        let store = try PostgresGatewayStore(conninfo: conninfo)
        _ = try await store.upsertDevice(try registration(1), now: Clock.start)
        let admin = try PostgresConnection(conninfo)
        // With a timeout, pg_terminate_backend returns once the session has ended, not when it was signalled.
        let ended = try admin.query(
            """
            SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity
                WHERE datname = current_database() AND pid <> pg_backend_pid()
            """)
        #expect(try ended.map { try $0.bool(0) } == [true])

        let error = await #expect(throws: GatewayStoreError.self) {
            try await store.device(bundleID: bundleID, token: try token(1))
        }
        guard case .database(let database) = error else {
            Issue.record("not a database error: \(String(describing: error))")
            return
        }
        #expect(database.connectionLost)
        #expect(try await store.device(bundleID: bundleID, token: try token(1))?.status == .active)
    }
}
