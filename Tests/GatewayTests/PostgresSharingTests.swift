import Foundation
import Gateway
import HeraldTestSupport
import Postgres
import Testing

/// Several processes on one PostgreSQL database, each with its own connection (a store each): what
/// one process does is never done again by another. SQLite has one writer at a time, so these races
/// exist only here.
@Suite(.timeLimit(.minutes(3)))
struct PostgresSharingTests {
    /// Stores on one fresh database, as `count` gateway processes would open it.
    private static func stores(_ count: Int) throws -> [PostgresGatewayStore] {
        let conninfo = try PostgresTestServer.makeDatabase()
        return try (0..<count).map { _ in try PostgresGatewayStore(conninfo: conninfo) }
    }

    @Test func twoProcessesExpandingOneNotificationMakeEachRowOnce() async throws {
        let stores = try Self.stores(3)
        try await stores[0].importDevices((1...3_000).map { try registration($0, tags: ["t"]) }, now: Clock.start)
        let id = try await stores[0].createNotification(request(to: .tags(["t"])), id: "n", now: Clock.start)
            .notification.id
        // Small chunks, so the processes' chunks interleave many times.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for store in stores {
                group.addTask { try await store.expandFully(id: id, chunkSize: 50, now: Clock.start) }
            }
            try await group.waitForAll()
        }
        let deliveries = try await stores[0].allDeliveries(id)
        #expect(deliveries.count == 3_000)
        #expect(Set(deliveries.map(\.recipient)).count == 3_000, "no recipient twice")
        #expect(Set(deliveries.map(\.apnsID)).count == 3_000)
        let notification = try #require(try await stores[1].notification(id: id))
        #expect(notification.expanded && notification.recipients == 3_000)
        #expect(try await stores[2].counts(id: id).pending == 3_000)
    }

    @Test func aScheduledNotificationIsStartedByOneProcess() async throws {
        let stores = try Self.stores(4)
        let sendAt = Clock.start + 60_000
        for n in 0..<40 {
            _ = try await stores[0].createNotification(
                request(to: .tags(["t"]), sendAt: sendAt), id: "later-\(n)", now: Clock.start)
        }
        let started = try await withThrowingTaskGroup(of: [NotificationID].self) { group in
            for store in stores {
                group.addTask {
                    var ids: [NotificationID] = []
                    while true {
                        let batch = try await store.startDueNotifications(now: sendAt, limit: 3)
                        if batch.isEmpty { return ids }
                        ids += batch
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(started.count == 40 && Set(started).count == 40, "each started once: \(started.count)")
    }

    @Test func oneIdempotencyKeySentByTwoProcessesAtOnceMakesOneNotification() async throws {
        let stores = try Self.stores(4)
        try await stores[0].importDevices((1...5).map { try registration($0, tags: ["t"]) }, now: Clock.start)
        let creations = try await withThrowingTaskGroup(of: NotificationCreation.self) { group in
            for (n, store) in stores.enumerated() {
                group.addTask {
                    try await store.createNotification(
                        request(to: .tags(["t"]), key: "once"), id: "attempt-\(n)", now: Clock.start)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(creations.filter(\.created).count == 1)
        #expect(Set(creations.map(\.notification.id)).count == 1, "every caller gets the one notification")
        #expect(creations.allSatisfy { $0.recipients == 5 })
    }

    @Test func outcomesRecordedByTwoProcessesCountEachDeliveryOnce() async throws {
        let stores = try Self.stores(2)
        try await stores[0].importDevices((1...400).map { try registration($0, tags: ["t"]) }, now: Clock.start)
        let id = try await stores[0].send(request(to: .tags(["t"])))
        // Each process claims and records its share; the first one's lease runs out and the other
        // takes its rows again: the late answers of both count once.
        let first = try await stores[0].claimDeliveries(
            limit: 200, claimer: "a", leaseMilliseconds: 1_000, now: Clock.start)
        let retaken = try await stores[1].claimDeliveries(
            limit: 400, claimer: "b", leaseMilliseconds: 60_000, now: Clock.start + 1_000)
        #expect(retaken.deliveries.count == 400, "the expired claims and the rest")
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await stores[0].recordOutcomes(
                    first.deliveries.map { DeliveryOutcome(deliveryID: $0.id, result: .succeeded(apnsUniqueID: nil)) },
                    backoff: DeliveryBackoff(), now: Clock.start + 2_000)
            }
            group.addTask {
                try await stores[1].recordOutcomes(
                    retaken.deliveries.map {
                        DeliveryOutcome(deliveryID: $0.id, result: .succeeded(apnsUniqueID: "u"))
                    },
                    backoff: DeliveryBackoff(), now: Clock.start + 2_000)
            }
            try await group.waitForAll()
        }
        let counts = try await stores[0].counts(id: id)
        #expect(counts.succeeded == 400 && counts.pending == 0)
        #expect(try await stores[1].notification(id: id)?.state == .done)
    }

    @Test func gatewaysStartingTogetherOnAnEmptyDatabaseMakeOneFirstAdminKey() async throws {
        for round in 0..<5 {
            let stores = try Self.stores(4)
            // Each process with its own data directory, as `herald gateway --database URL --data-dir DIR`.
            let directories = try stores.indices.map { index in
                let directory = GatewayDataDirectory(
                    path: FileManager.default.temporaryDirectory.appendingPathComponent("first-key-\(UUID())").path)
                try directory.create()
                return directory
            }
            defer { for directory in directories { try? FileManager.default.removeItem(atPath: directory.path) } }
            let made = try await withThrowingTaskGroup(of: Bool.self) { group in
                for (store, directory) in zip(stores, directories) {
                    group.addTask { try await directory.createFirstAdminKey(in: store, now: Clock.start) != nil }
                }
                return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            #expect(made == 1, "round \(round): \(made) first admin keys")
            #expect(try await stores[0].apiKeys().count == 1)
            let files = directories.filter { FileManager.default.fileExists(atPath: $0.adminKeyPath) }
            #expect(files.count == 1, "only the maker keeps an admin-api-key file")
        }
    }
}
