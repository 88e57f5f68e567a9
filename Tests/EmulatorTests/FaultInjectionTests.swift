import APNs
import APNsClient
import Emulator
import HTTP2
import Keys
import Testing

/// Faults declared through the control API, seen by Herald's client over loopback.
@Suite(.timeLimit(.minutes(1)))
struct FaultInjectionTests {
    static let token = String(repeating: "ab", count: 32)

    /// An emulator, a client for it (no retries unless `retries`), and the notification to send.
    func withClient(
        retries: Bool = false, _ body: (Emulator, APNsClient, APNs.Notification) async throws -> Void
    ) async throws {
        let note = APNs.Notification(
            token: try DeviceToken(hex: Self.token), topic: try Topic("com.example.app"), payload: Payload.alert(body: "x"))
        let policy = retries ? RetryPolicy(maximumAttempts: 3, baseDelay: .milliseconds(1)) : .none
        try await withDeviceEmulator(retryPolicy: policy) { harness in
            try await body(harness.emulator, harness.client, note)
        }
    }

    func declare(_ json: String, on emulator: Emulator) async throws -> HTTP2Response {
        try await ControlClient.request(method: "POST", port: emulator.port, path: "/control/v1/faults", body: Array(json.utf8))
    }

    @Test func aStatusForTheNextRequestsThenNormalAnswers() async throws {
        try await withClient { emulator, client, note in
            let declared = try await declare(#"{"action":"respond","status":503,"count":2}"#, on: emulator)
            #expect(declared.status == 201)
            for _ in 0..<2 {
                await #expect(throws: APNsClientError.self) { _ = try await client.send(note) }
            }
            _ = try await client.send(note)
            #expect(emulator.log.entries().map(\.status) == [503, 503, 200])
            #expect(emulator.log.entries().map(\.reason) == ["ServiceUnavailable", "ServiceUnavailable", nil])
            #expect(emulator.log.entries().first?.fault == "respond")
            #expect(emulator.faults.list().isEmpty, "a count-limited fault is used up")
        }
    }

    @Test(arguments: [
        (#"{"reason":"InternalServerError"}"#, 500, "InternalServerError"),
        (#"{"status":429}"#, 429, "TooManyRequests"),
        (#"{"reason":"Unregistered"}"#, 410, "Unregistered"),
        (#"{"status":400,"reason":"BadDeviceToken"}"#, 400, "BadDeviceToken"),
    ])
    func respondFaultsCarryApplesStatusAndReason(json: String, status: Int, reason: String) async throws {
        try await withClient { emulator, client, note in
            let declared = try await declare(json, on: emulator)
            #expect(declared.status == 201)
            guard case .failure(.rejected(let rejection)) = await client.result(for: note) else {
                Issue.record("the fault must reject the push")
                return
            }
            #expect(rejection.status == status)
            #expect(rejection.reason.rawValue == reason)
            #expect((rejection.timestampMilliseconds != nil) == (status == 410))
        }
    }

    @Test func goAwayLeavesTheRequestUnprocessedAndTheClientResendsIt() async throws {
        try await withClient(retries: true) { emulator, client, note in
            let declared = try await declare(#"{"action":"goaway","reason":"Shutdown"}"#, on: emulator)
            #expect(declared.status == 201)
            let response = try await client.send(note)
            let entries = emulator.log.entries()
            #expect(entries.map(\.fault) == ["goaway", nil])
            #expect(entries.last?.status == 200 && entries.last?.apnsID == response.apnsID)
            #expect(emulator.server.acceptedTotal >= 2, "the resend went over a new connection")
        }
    }

    @Test func resetAndDisconnectAreTransportFailures() async throws {
        try await withClient { emulator, client, note in
            for action in ["reset", "disconnect"] {
                let declared = try await declare(#"{"action":"\#(action)"}"#, on: emulator)
                #expect(declared.status == 201)
                let result = await client.result(for: note)
                guard case .failure(.transport) = result else {
                    Issue.record("\(action): expected a transport failure, got \(result)")
                    continue
                }
            }
            _ = try await client.send(note)  // the client recovers
            #expect(emulator.log.entries().map(\.fault) == ["reset", "disconnect", nil])
        }
    }

    @Test func addedLatencyDelaysTheNormalAnswer() async throws {
        try await withClient { emulator, client, note in
            _ = try await client.send(note)  // connected and authenticated
            let declared = try await declare(#"{"action":"delay","latencyMs":300}"#, on: emulator)
            #expect(declared.status == 201)
            let start = ContinuousClock.now
            _ = try await client.send(note)
            #expect(ContinuousClock.now - start >= .milliseconds(300))
            #expect(emulator.log.entries().map(\.status) == [200, 200])
        }
    }

    @Test func aFractionHitsAboutThatShareAndTheCountsAgree() async throws {
        try await withClient { emulator, client, note in
            let declared = try await declare(#"{"reason":"InternalServerError","fraction":0.25}"#, on: emulator)
            #expect(declared.status == 201)
            var failed = 0
            for _ in 0..<400 {
                do { _ = try await client.send(note) } catch { failed += 1 }
            }
            #expect((60...140).contains(failed), "about a quarter of 400, got \(failed)")
            #expect(emulator.faults.injectedCount == failed)
            #expect(emulator.log.counts.byStatus[500] == failed)
            #expect(emulator.faults.list().first?.applied == failed, "a fraction stays until removed")
        }
    }

    @Test func aFaultForOneTokenSparesTheOthers() async throws {
        try await withClient { emulator, client, note in
            let other = String(repeating: "cd", count: 32)
            let declared = try await declare(#"{"status":500,"token":"\#(other.uppercased())"}"#, on: emulator)
            #expect(declared.status == 201)
            _ = try await client.send(note)
            var toOther = note
            toOther.token = try DeviceToken(hex: other)
            await #expect(throws: APNsClientError.self) { _ = try await client.send(toOther) }
        }
    }
}
