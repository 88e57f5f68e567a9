import APNs
import Emulator
import Gateway
import Testing

/// The pruning rule carried out by the engine on the emulator's real answers: 410 with the
/// emulator's timestamp on either side of registered-at, BadDeviceToken, DeviceTokenNotForTopic.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct DeliveryPruningTests {
    @Test(arguments: StoreKind.allCases)
    func unregisteredAfterTheLastUploadIsPrunedBeforeItIsNot(kind: StoreKind) async throws {
        try await DeliveryHarness.with(kind) { harness in
            let tokens = try await harness.register(1..<3)  // registered at Clock.start
            harness.emulator.tokens.unregister(tokens[0].hex, at: Clock.start + 5_000)
            harness.emulator.tokens.unregister(tokens[1].hex, at: Clock.start - 5_000)
            harness.clock.advance(by: 10_000)
            let id = try await harness.create(request(to: .tokens(tokens)))
            harness.engine.start()
            harness.engine.wake()
            try await harness.untilFinished(id)

            #expect(harness.logged(tokens[0]).map(\.status) == [410])
            let gone = try await harness.store.device(bundleID: bundleID, token: tokens[0])
            #expect(gone?.status == .unregistered, "APNs's timestamp is after the last upload")
            #expect(gone?.statusReason?.contains("\(Clock.start + 5_000)") == true)
            let again = try await harness.store.device(bundleID: bundleID, token: tokens[1])
            #expect(again?.status == .active, "uploaded again after APNs's timestamp")
            #expect(try await harness.store.counts(id: id).byReason == ["Unregistered": 2])
            #expect(harness.metrics.pruned == 1)

            // The next send skips the pruned token: expansion takes active ones only.
            let next = try await harness.create(request(to: .tokens(tokens)))
            harness.engine.wake()
            try await harness.untilFinished(next)
            #expect(try await harness.deliveries(next).map(\.recipient) == [tokens[1].hex])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func badDeviceTokenAndDeviceTokenNotForTopicInvalidateTheToken(kind: StoreKind) async throws {
        try await DeliveryHarness.with(kind) { harness in
            let tokens = try await harness.register(1..<4)
            harness.emulator.faults.add(
                Fault(
                    action: .respond(status: 400, reason: .badDeviceToken), selection: .fraction(1),
                    token: tokens[0].hex))
            harness.emulator.faults.add(
                Fault(
                    action: .respond(status: 400, reason: .deviceTokenNotForTopic), selection: .fraction(1),
                    token: tokens[1].hex))
            let id = try await harness.create(request(to: .tokens(tokens)))
            harness.engine.start()
            harness.engine.wake()
            try await harness.untilFinished(id)

            let wrongEnvironment = try await harness.store.device(bundleID: bundleID, token: tokens[0])
            #expect(wrongEnvironment?.status == .invalid)
            #expect(wrongEnvironment?.statusReason?.contains("other environment (sandbox)") == true)
            let otherApp = try await harness.store.device(bundleID: bundleID, token: tokens[1])
            #expect(otherApp?.status == .invalid)
            #expect(otherApp?.statusReason?.contains(bundleID) == true)
            #expect(try await harness.store.device(bundleID: bundleID, token: tokens[2])?.status == .active)
            #expect(harness.metrics.pruned == 2)
            #expect(
                try await harness.store.counts(id: id).byReason == ["BadDeviceToken": 1, "DeviceTokenNotForTopic": 1])
        }
    }
}
