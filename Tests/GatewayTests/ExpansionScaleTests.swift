import APNs
import Foundation
import Storage
import Testing

@testable import Gateway

/// A fan-out's expansion at scale: 100,000 devices behind one tag, expanded chunk by chunk, on
/// SQLite (the in-memory twin holds everything in memory by design; it runs the same expansion
/// at 2,550 devices in `NotificationStoreTests`). The devices are written by one SQL statement:
/// the store's own bulk import is tested in `DeviceStoreTests` and would only add CPU time here,
/// on a machine other tests share.
@Suite(.timeLimit(.minutes(3)))
struct ExpansionScaleTests {
    @Test func aTagOfAHundredThousandDevicesExpandsInBoundedChunks() async throws {
        let fixture = try GatewayStoreFixture(.sqlite)
        defer { fixture.remove() }
        let count = 100_000
        let chunk = 1_000
        let clock = ContinuousClock()
        let store = try #require(fixture.store as? SQLiteGatewayStore)
        // On the store's thread, as its own calls: a long transaction must not hold a pool thread.
        try await store.withDatabase { database in try Self.seedDevices(count, in: database) }
        #expect(try await fixture.store.deviceCounts(bundleID: bundleID) == [.active: count])

        _ = try await fixture.store.createNotification(
            request(to: .tags(["all", "even"])), id: "fan", now: Clock.start)
        let residentBefore = residentBytes()
        let expandStart = clock.now
        var chunks = 0
        var largest = 0
        while true {
            let step = try await fixture.store.expandNotification(
                id: "fan", chunkSize: chunk, maximumChunks: 1, now: Clock.start)
            largest = max(largest, step.inserted)
            chunks += step.chunks
            if step.finished { break }
            await Task.yield()  // as a worker would between chunks: other tests share the pool
        }
        let expanded = clock.now - expandStart
        let growth = residentBytes() - residentBefore

        #expect(largest <= chunk)
        #expect(
            try await fixture.store.notification(id: "fan")?.recipients == count, "each device once, two tags or one")
        #expect(try await fixture.store.counts(id: "fan").pending == count)
        print(
            "sqlite: expanded \(count) devices in \(expanded) (\(chunks) chunks of \(chunk)); "
                + "resident memory grew \(growth / 1_048_576) MB during the expansion")
    }

    /// Devices 1...count (tokens as in `token(_:)`), tagged "all", the even ones "even" too.
    private static func seedDevices(_ count: Int, in database: SQLiteDatabase) throws {
        try database.transaction {
            try database.run(
                """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                INSERT INTO devices (bundle_id, token, environment, registered_at, status)
                    SELECT ?, printf('%064x', i), 'production', ?, 'active' FROM n
                """, [.integer(count), .text(bundleID), .integer(Clock.start)])
            try database.run("INSERT INTO device_tags (device_seq, tag) SELECT seq, 'all' FROM devices")
            try database.run(
                "INSERT INTO device_tags (device_seq, tag) SELECT seq, 'even' FROM devices WHERE seq % 2 = 0")
        }
    }

    /// The process's resident set size (Linux), 0 where unknown.
    private func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1_024
    }
}
