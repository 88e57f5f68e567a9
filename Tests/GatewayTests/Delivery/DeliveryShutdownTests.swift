import APNs
import APNsClient
import Emulator
import Gateway
import Testing

/// `DeliveryEngine.shutdown(gracePeriod:)`: graceful (the batch in flight is sent and recorded),
/// or abandoned past the grace period (nothing recorded, the connections shut down; a restarted
/// engine sends the rows again with their apns-ids once the lease runs out).
@Suite(.serialized, .timeLimit(.minutes(2)))
struct DeliveryShutdownTests {
    /// Starts sending 20 devices with answers slowed down; returns when sends are in flight.
    func startSlowSend(_ harness: DeliveryHarness) async throws -> (NotificationID, [DeviceToken]) {
        let tokens = try await harness.register(1..<21, tags: ["all"])
        // Slow enough that the test sees the sends in flight however busy the machine is.
        harness.emulator.faults.add(Fault(action: .delay, selection: .fraction(1), latencyMilliseconds: 2_000))
        let id = try await harness.create(request(to: .tags(["all"])))
        harness.engine.start()
        harness.engine.wake()
        try await harness.until {
            if try await harness.store.notification(id: id)?.state == .done {
                Issue.record("the sends ended before the test saw them in flight")
                return true
            }
            return harness.metrics.sendsInFlight > 0
        }
        return (id, tokens)
    }

    @Test(arguments: StoreKind.allCases)
    func aGracefulShutdownRecordsTheSendsInFlight(kind: StoreKind) async throws {
        try await DeliveryHarness.with(kind) { harness in
            let (id, _) = try await startSlowSend(harness)
            await harness.engine.shutdown()
            let rows = try await harness.deliveries(id)
            let succeeded = rows.filter { $0.status == .succeeded }
            #expect(!succeeded.isEmpty, "the batch in flight finished")
            #expect(
                rows.allSatisfy { $0.status == .succeeded || $0.claimedBy == nil }, "nothing claimed is left unrecorded"
            )
            #expect(harness.metrics.sendsInFlight == 0)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func abandonedSendsAreResentWithTheirAPNsIDsAfterTheLease(kind: StoreKind) async throws {
        try await DeliveryHarness.with(kind) { harness in
            let (id, tokens) = try await startSlowSend(harness)
            await harness.engine.shutdown(gracePeriod: .zero)
            await harness.connections.shutdown()
            // No outcome recorded (SQLite keeps no row for a claimed delivery until its outcome).
            let abandoned = try await harness.deliveries(id)
            #expect(
                abandoned.allSatisfy { $0.status == .pending && $0.attempts == 0 }, "no outcome recorded: \(abandoned)")
            let counts = try await harness.store.counts(id: id)
            #expect(counts.succeeded == 0 && counts.failed == 0 && counts.pending > 0, "\(counts)")

            harness.emulator.faults.removeAll()
            let client = try harness.makeClient()
            let restarted = DeliveryEngine(
                store: harness.store,
                connections: APNsConnections([APNsConnections.Key(bundleID: bundleID, environment: .production): client]
                ),
                configuration: harness.engineConfiguration, observer: harness.observer)
            harness.clock.advance(by: harness.engineConfiguration.leaseMilliseconds)
            restarted.start()
            restarted.wake()
            try await harness.untilFinished(id)
            await restarted.shutdown()
            await client.shutdown()
            let rows = try await harness.deliveries(id)
            #expect(rows.allSatisfy { $0.status == .succeeded && $0.attempts == 1 })
            let recorded = Dictionary(uniqueKeysWithValues: rows.map { ($0.recipient, $0.apnsID.value) })
            for token in tokens {
                let log = harness.logged(token)
                #expect(log.contains { $0.status == 200 })
                #expect(log.allSatisfy { $0.apnsID == recorded[token.hex] }, "every attempt carries the row's apns-id")
            }
        }
    }
}
