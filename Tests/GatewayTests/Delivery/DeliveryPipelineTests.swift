import APNs
import Emulator
import Gateway
import Testing

/// A worker is a pipeline: while one batch is being sent it claims the next, so the APNs
/// connections do not wait for the store between batches; and it renews the leases of a batch
/// still being sent (docs/GATEWAY.md, "Delivery").
@Suite(.serialized, .timeLimit(.minutes(2)))
struct DeliveryPipelineTests {
    @Test(arguments: StoreKind.allCases)
    func theNextChunkIsClaimedWhileABatchIsSent(kind: StoreKind) async throws {
        // Two workers of 10 sends each, chunks of 10: 40 devices are four chunks.
        let configure: (inout DeliveryEngineConfiguration) -> Void = {
            $0.claimBatchSize = 10
            $0.sendConcurrency = 20
        }
        try await DeliveryHarness.with(kind, configure: configure) { harness in
            let tokens = try await harness.register(1..<41, tags: ["all"])
            // Every answer waits, so a batch is still being sent when the worker can claim the next.
            harness.emulator.faults.add(Fault(action: .delay, selection: .fraction(1), latencyMilliseconds: 1_000))
            let id = try await harness.create(request(to: .tags(["all"])))
            harness.engine.start()
            harness.engine.wake()
            // Without the pipeline each worker expands one chunk, then sends and records it before the
            // next: two chunks before the first outcomes are recorded. With it, all four.
            var chunksBeforeFirstRecord = 0
            eventLoop: for await event in harness.events {
                switch event {
                case .expanded(_, let progress) where progress.inserted > 0: chunksBeforeFirstRecord += 1
                case .recorded: break eventLoop
                case .storeFailed(let error): Issue.record("the store failed: \(error)")
                default: continue
                }
            }
            #expect(chunksBeforeFirstRecord == 4)
            harness.emulator.faults.removeAll()
            try await harness.untilFinished(id)
            let rows = try await harness.deliveries(id)
            #expect(rows.count == 40 && rows.allSatisfy { $0.status == .succeeded && $0.attempts == 1 })
            for token in tokens {
                #expect(harness.logged(token).count == 1, "each device sent once")
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aBatchSlowerThanItsLeaseIsNotSentAgainByAnotherEngine(kind: StoreKind) async throws {
        // Real time: the lease runs out while every answer is still delayed, unless renewed.
        let configure: (inout DeliveryEngineConfiguration) -> Void = {
            $0.clock = GatewayConfiguration.systemMillisecondClock
            $0.leaseMilliseconds = 1_500
        }
        try await DeliveryHarness.with(kind, configure: configure) { harness in
            let tokens = try await harness.register(1..<11, tags: ["all"])
            harness.emulator.faults.add(Fault(action: .delay, selection: .fraction(1), latencyMilliseconds: 3_000))
            let id = try await harness.create(request(to: .tags(["all"])))
            harness.engine.start()
            harness.engine.wake()
            try await harness.until { harness.metrics.sendsInFlight > 0 }
            // Another gateway on the same store, claiming every 50 ms.
            var configuration = harness.engineConfiguration
            configuration.claimer = "other-engine"
            let client = try harness.makeClient()
            let key = APNsConnections.Key(bundleID: bundleID, environment: .production)
            let other = DeliveryEngine(
                store: harness.store, connections: APNsConnections([key: client]), configuration: configuration)
            other.start()
            try await harness.untilFinished(id)
            await other.shutdown()  // its sends, if it made any, end and are logged
            await client.shutdown()
            for token in tokens {
                #expect(harness.logged(token).count == 1, "sent once, by the engine that renewed its lease")
            }
        }
    }
}
