import Gateway
import Postgres
import Testing

/// A bulk import into PostgreSQL ends with `ANALYZE`: without statistics the planner takes the
/// freshly filled tables for a few rows and plans each fan-out chunk as a scan and a sort of every
/// device after the cursor.
@Suite(.timeLimit(.minutes(1)))
struct PostgresImportStatisticsTests {
    @Test func anImportLeavesThePlannerStatisticsOfWhatItWrote() async throws {
        let fixture = try GatewayStoreFixture(.postgres)
        defer { fixture.remove() }
        let connection = try PostgresConnection(fixture.conninfo)
        let query = "SELECT count(*) FROM pg_stats WHERE tablename IN ('devices', 'device_tags')"
        #expect(try connection.query(query).first?.int(0) == 0)
        let imported = try await fixture.store.importDevices(
            (1...2_000).map { try registration($0, tags: ["news"]) }, batchSize: 500, now: Clock.start)
        #expect(imported == 2_000)
        #expect(try connection.query(query).first?.int(0) ?? 0 > 0)
        let tuples = try connection.query("SELECT reltuples::bigint FROM pg_class WHERE relname = 'devices'")
        #expect(try tuples.first?.int(0) == 2_000)
    }
}
