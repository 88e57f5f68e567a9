import APNs
import APNsClient
import Emulator
import Foundation
import Gateway
import Testing

/// The delivery engine against the real emulator on loopback, on both stores: fan-out, retries,
/// final failures, scheduled sends, leases, cancel.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct DeliveryEngineTests {
    /// The fan-out over h2c on the in-memory store (with and without its fused expansion) and over
    /// TLS on SQLite.
    static let fanOutCases: [(StoreKind, Bool)] = [(.memory, false), (.unfused, false), (.sqlite, true)]

    @Test(arguments: fanOutCases)
    func fanOutByTagReachesEveryDeviceExactlyOnce(kind: StoreKind, tls: Bool) async throws {
        try await DeliveryHarness.with(kind, tls: tls) { harness in
            let tokens = try await harness.register(1..<301, tags: ["news"])
            _ = try await harness.register(301..<321, tags: ["sport"])
            let id = try await harness.create(request(to: .tags(["news"])))
            harness.engine.start()
            harness.engine.wake()
            try await harness.untilFinished(id)

            let counts = try await harness.store.counts(id: id)
            #expect(counts.succeeded == 300 && counts.failed == 0 && counts.pending == 0)
            let rows = try await harness.deliveries(id)
            #expect(rows.count == 300)
            #expect(rows.allSatisfy { $0.status == .succeeded && $0.attempts == 1 && $0.apnsUniqueID != nil })
            let log = harness.emulator.log.entries()
            #expect(log.count == 300, "one request per device, none twice")
            #expect(log.allSatisfy { $0.status == 200 && $0.topic == bundleID && $0.pushType == "alert" })
            #expect(Set(log.compactMap(\.apnsID)) == Set(rows.map(\.apnsID.value)), "the rows' apns-ids, each once")
            #expect(Set(log.compactMap(\.token)) == Set(tokens.map(\.hex)))
            let byToken = Dictionary(grouping: log, by: { $0.token ?? "" })
            #expect(byToken.values.allSatisfy { $0.count == 1 })
            #expect(harness.metrics.sends[.succeeded]?[""] == 300)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func serverErrorsAndTooManyRequestsAreRetriedWithTheSameAPNsID(kind: StoreKind) async throws {
        try await DeliveryHarness.with(kind) { harness in
            let tokens = try await harness.register(1..<4)
            harness.emulator.faults.add(
                Fault(action: .respond(status: 503, reason: .serviceUnavailable), token: tokens[0].hex))
            harness.emulator.faults.add(
                Fault(
                    action: .respond(status: 429, reason: .tooManyRequests), selection: .next(2), token: tokens[1].hex))
            let id = try await harness.create(request(to: .tokens(tokens)))
            harness.engine.start()
            harness.engine.wake()
            // Each retry waits for the queue's backoff on the engine's clock: move it on meanwhile.
            try await harness.untilFinished(id, advancingClockBy: DeliveryHarness.backoff.maximum)
            let rows = try await harness.deliveries(id)
            #expect(rows.map(\.status) == [.succeeded, .succeeded, .succeeded])
            #expect(rows.map(\.attempts) == [2, 3, 1])
            for (row, token) in zip(rows, tokens) {
                let log = harness.logged(token)
                #expect(log.allSatisfy { $0.apnsID == row.apnsID.value }, "every attempt carries the row's apns-id")
            }
            #expect(harness.logged(tokens[0]).map(\.status) == [503, 200])
            #expect(harness.logged(tokens[1]).map(\.status) == [429, 429, 200])
            #expect(harness.metrics.sends[.retryable] == ["ServiceUnavailable": 1, "TooManyRequests": 2])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aRetryCapEndsInFailureWithTheLastReason(kind: StoreKind) async throws {
        try await DeliveryHarness.with(kind) { harness in
            let tokens = try await harness.register(1..<2)
            harness.emulator.faults.add(
                Fault(
                    action: .respond(status: 500, reason: .internalServerError), selection: .fraction(1),
                    token: tokens[0].hex))
            let id = try await harness.create(request(to: .tokens(tokens)))
            harness.engine.start()
            harness.engine.wake()
            try await harness.untilFinished(id, advancingClockBy: DeliveryHarness.backoff.maximum)
            let counts = try await harness.store.counts(id: id)
            #expect(counts.failed == 1 && counts.byReason == ["InternalServerError": 1])
            #expect(harness.logged(tokens[0]).count == DeliveryHarness.backoff.maximumAttempts)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aClientErrorIsFinal(kind: StoreKind) async throws {
        try await DeliveryHarness.with(kind) { harness in
            let tokens = try await harness.register(1..<3)
            harness.emulator.faults.add(
                Fault(
                    action: .respond(status: 400, reason: .badPriority), selection: .fraction(1), token: tokens[0].hex))
            let id = try await harness.create(request(to: .tokens(tokens)))
            harness.engine.start()
            harness.engine.wake()
            try await harness.untilFinished(id)
            harness.clock.advance(by: DeliveryHarness.backoff.maximum)
            harness.engine.wake()
            try await harness.nextRound()
            let rows = try await harness.deliveries(id)
            #expect(rows.map(\.status) == [.failed, .succeeded])
            #expect(rows[0].reason == "BadPriority" && rows[0].attempts == 1)
            #expect(harness.logged(tokens[0]).count == 1, "a 4xx is never sent again")
            let device = try await harness.store.device(bundleID: bundleID, token: tokens[0])
            #expect(device?.status == .active, "BadPriority says nothing about the token")
            #expect(try await harness.store.counts(id: id).byReason == ["BadPriority": 1])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aScheduledNotificationGoesOutWhenTheClockReachesSendAt(kind: StoreKind) async throws {
        try await DeliveryHarness.with(kind) { harness in
            let tokens = try await harness.register(1..<3, user: "ada")
            let sendAt = Clock.start + 60_000
            let id = try await harness.create(request(to: .users(["ada"]), sendAt: sendAt))
            harness.engine.start()
            harness.engine.wake()
            harness.clock.set(sendAt - 1)
            try await harness.nextRound()
            #expect(try await harness.store.notification(id: id)?.state == .scheduled)
            #expect(harness.emulator.log.entries().isEmpty, "nothing before send-at")
            harness.clock.set(sendAt)
            harness.engine.wake()
            try await harness.untilFinished(id)
            #expect(try await harness.store.counts(id: id).succeeded == 2)
            #expect(Set(harness.emulator.log.entries().compactMap(\.token)) == Set(tokens.map(\.hex)))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anExpiredLeaseIsResentWithTheSameAPNsID(kind: StoreKind) async throws {
        try await DeliveryHarness.with(kind) { harness in
            let tokens = try await harness.register(1..<2)
            let id = try await harness.create(request(to: .tokens(tokens)))
            try await harness.store.expandFully(id: id, now: harness.clock.now)
            // A worker claims the row, sends it, and dies before recording the outcome.
            let claim = try await harness.store.claimDeliveries(
                limit: 10, claimer: "dead-worker", leaseMilliseconds: 30_000, now: harness.clock.now)
            let row = try #require(claim.deliveries.first)
            _ = try await harness.client.send(
                APNsNotification(
                    token: tokens[0], topic: try Topic(bundleID), apnsID: row.apnsID,
                    payload: EncodedPayload(bytes: claim.notifications[id]?.request.payload ?? [])))
            harness.engine.start()
            harness.engine.wake()
            try await harness.nextRound()
            #expect(try await harness.store.counts(id: id).pending == 1, "the lease still holds the row")
            #expect(harness.logged(tokens[0]).count == 1)
            harness.clock.advance(by: 30_000)
            harness.engine.wake()
            try await harness.untilFinished(id)
            let log = harness.logged(tokens[0])
            #expect(log.count == 2)
            #expect(log.allSatisfy { $0.apnsID == row.apnsID.value && $0.status == 200 })
            let rows = try await harness.deliveries(id)
            #expect(rows.first?.status == .succeeded && rows.first?.attempts == 1)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func cancelStopsWhatIsPending(kind: StoreKind) async throws {
        try await DeliveryHarness.with(kind) { harness in
            let cancelledTokens = try await harness.register(1..<4)
            let sentTokens = try await harness.register(4..<7)
            let cancelled = try await harness.create(request(to: .tokens(cancelledTokens)))
            let sent = try await harness.create(request(to: .tokens(sentTokens)))
            try await harness.store.expandFully(id: cancelled, now: harness.clock.now)
            try await harness.store.expandFully(id: sent, now: harness.clock.now)
            _ = try await harness.store.cancelNotification(id: cancelled, now: harness.clock.now)
            harness.engine.start()
            harness.engine.wake()
            try await harness.untilFinished(sent)
            #expect(Set(harness.emulator.log.entries().compactMap(\.token)) == Set(sentTokens.map(\.hex)))
            #expect(try await harness.store.counts(id: cancelled).cancelled == 3)
            #expect(try await harness.store.notification(id: cancelled)?.state == .cancelled)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func tokensPrunedSinceExpansionAndMissingClientsAreNotSent(kind: StoreKind) async throws {
        try await DeliveryHarness.with(kind) { harness in
            let live = try await harness.register(1..<2)
            let pruned = try await harness.register(2..<3)
            let sandbox = try await harness.register(3..<4, environment: .sandbox)
            let id = try await harness.create(request(to: .tokens(live + pruned + sandbox)))
            try await harness.store.expandFully(id: id, now: harness.clock.now)
            _ = try await harness.store.prune(
                .invalidateForTopic(statusReason: "test"), bundleID: bundleID, kind: .device, token: pruned[0].hex)
            harness.engine.start()
            harness.engine.wake()
            try await harness.untilFinished(id)
            let rows = try await harness.deliveries(id)
            #expect(rows.map(\.status) == [.succeeded, .failed, .failed])
            #expect(rows.map(\.reason) == [nil, "TokenNotActive", "NoClientForEnvironment"])
            #expect(harness.emulator.log.entries().compactMap(\.token) == [live[0].hex], "only the live token is sent")
        }
    }
}
