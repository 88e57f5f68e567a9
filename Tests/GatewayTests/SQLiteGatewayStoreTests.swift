import Foundation
import Storage
import Testing

@testable import Gateway

/// What only the SQLite store has: its thread, and query plans. The hot queries walk an index and
/// sort nothing: a chunk of a fan-out reads about a chunk's rows whatever the number of devices,
/// and a claim reads about a batch of due rows.
// Each SQLite call suspends and resumes through the shared cooperative pool: alone these tests
// take well under a second, but inside a full run on a loaded 2-core machine the waits for a pool
// thread add up past a minute. The limit is there to catch a hang, not to time the machine.
@Suite(.timeLimit(.minutes(3)))
struct SQLiteGatewayStoreTests {
    @Test func callsRunOnTheStoresThreadNotTheCallers() async throws {
        let fixture = try GatewayStoreFixture(.sqlite)
        defer { fixture.remove() }
        let store = try #require(fixture.store as? SQLiteGatewayStore)
        let name = try await store.withDatabase { _ in Self.currentThreadName() }
        #expect(name == "herald-gateway-", "the EventLoop's name, cut to 15 bytes by Linux")
        #expect(Self.currentThreadName() != name)
    }

    /// The calling thread's name, as Linux keeps it.
    private static func currentThreadName() -> String {
        let text = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        return text.trimmingCharacters(in: .newlines)
    }

    private func plan(_ sql: String, _ values: [SQLiteValue]) throws -> [String] {
        let scratch = try ScratchDirectory("herald-plan")
        defer { scratch.remove() }
        let path = scratch.storePath
        _ = try SQLiteGatewayStore(path: path)
        let database = try SQLiteDatabase(path: path)
        return try database.query("EXPLAIN QUERY PLAN " + sql, values) { $0.string(3) ?? "" }
    }

    @Test(arguments: ["tags", "users", "push-to-start"])
    func expansionWalksAnIndexFromTheCursor(_ kind: String) throws {
        var values: [SQLiteValue] = [.text(bundleID), .integer(0), .text(#"["a"]"#), .integer(1_000)]
        values += [kind == "push-to-start" ? .text("Score") : .null, .integer(.max)]
        let steps = try plan(SQLiteGatewayStore.expansionSQL(kind), values)
        let table = kind == "push-to-start" ? "push_to_start_tokens" : "devices"
        #expect(steps.contains { $0.hasPrefix("SEARCH d USING INDEX") }, "\(table): \(steps)")
        if kind == "tags" {
            // A tag may cover every device: no sort over them.
            #expect(steps.contains("SEARCH d USING INDEX devices_by_app (bundle_id=? AND seq>? AND seq<?)"), "\(steps)")
            #expect(!steps.contains { $0.contains("TEMP B-TREE") }, "\(steps)")
        } else {
            // Sorted, but only the listed users' rows (an index on user), not the app's.
            #expect(steps.first?.hasPrefix("SCAN u") == true, "\(table): \(steps)")
            #expect(steps.contains { $0.contains("user_id=?") }, "\(table): \(steps)")
        }
    }

    @Test func aClaimReadsTheDueIndexInOrder() throws {
        let steps = try plan(
            SQLiteGatewayStore.claimSQL, [.text("w"), .integer(1), .integer(1), .integer(0), .integer(100)])
        #expect(steps.contains { $0.contains("USING INDEX deliveries_due (next_attempt_at<?)") }, "\(steps)")
        #expect(!steps.contains { $0.contains("TEMP B-TREE") }, "\(steps)")
    }
}
