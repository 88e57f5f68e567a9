import APNs
import Emulator
import Testing

@testable import HTTP2

/// What the emulator bounds and how it says so: payload sizes as APNs answers them, HEAD, the
/// fault and unregistered-token caps, the control token.
@Suite(.timeLimit(.minutes(1)))
struct EmulatorBoundsTests {
    static func reason(_ response: HTTP2Response) -> String? {
        (try? JSONValue(parsing: response.body))?["reason"]?.stringValue
    }

    /// Over 4096 bytes (5120 for VoIP) is 413, including bodies past the HTTP/2 session's own limit
    /// (5121 bytes), which the session stops keeping.
    @Test(arguments: [
        ("alert", 4096, 200), ("alert", 4097, 413), ("voip", 5120, 200), ("voip", 5121, 413), ("alert", 5122, 413),
        ("voip", 6000, 413), ("alert", 20_000, 413),
    ])
    func payloadsOverTheLimitAre413(pushType: String, size: Int, status: Int) async throws {
        try await withBoundedEmulator { emulator in
            let response = try await emulator.push(BoundedEmulator.payload(size: size), pushType: pushType)
            #expect(response.status == status, "\(pushType) \(size) bytes: \(Self.reason(response) ?? "")")
            if status == 413 {
                #expect(Self.reason(response) == "PayloadTooLarge")
                #expect(response.headers.value(for: "apns-id") != nil)
            }
        }
    }

    @Test func headIsAnsweredWithoutABody() async throws {
        try await withBoundedEmulator { emulator in
            let head = try await emulator.send("HEAD", "/control/v1/stats")
            #expect(head.status == 405)
            #expect(head.body.isEmpty, "HEAD: the status and headers alone")
            let get = try await emulator.send("GET", "/control/v1/stats")
            #expect(get.status == 200 && !get.body.isEmpty)
        }
    }

    @Test func theFaultListIsCappedWith409() async throws {
        try await withBoundedEmulator({ $0.faultLimit = 3 }) { emulator in
            var ids: [Int] = []
            for _ in 0..<3 {
                let created = try await emulator.send(
                    "POST", "/control/v1/faults", body: Array(#"{"status":503}"#.utf8))
                #expect(created.status == 201)
                if let id = (try? JSONValue(parsing: created.body))?["id"]?.intValue { ids.append(id) }
            }
            let refused = try await emulator.send("POST", "/control/v1/faults", body: Array(#"{"status":503}"#.utf8))
            #expect(refused.status == 409)
            #expect(Self.reason(refused) == "TooManyFaults")
            let error = (try? JSONValue(parsing: refused.body))?["error"]?.stringValue ?? ""
            #expect(error.contains("3 faults"), "names the limit: \(error)")
            #expect(emulator.emulator.faults.count == 3)
            // Room again once one is removed.
            #expect(try await emulator.send("DELETE", "/control/v1/faults/\(ids[0])").status == 204)
            #expect(
                try await emulator.send("POST", "/control/v1/faults", body: Array(#"{"status":503}"#.utf8)).status
                    == 201)
        }
    }

    @Test func unregisteredTokensAreCappedWith409() async throws {
        try await withBoundedEmulator({ $0.unregisteredTokenLimit = 2 }) { emulator in
            let tokens = ["aa", "bb", "cc"].map { String(repeating: $0, count: 32) }
            for token in tokens.prefix(2) {
                #expect(try await emulator.send("POST", "/control/v1/devices/\(token)/unregister").status == 204)
            }
            let refused = try await emulator.send("POST", "/control/v1/devices/\(tokens[2])/unregister")
            #expect(refused.status == 409)
            #expect(Self.reason(refused) == "TooManyUnregisteredTokens")
            #expect(emulator.emulator.tokens.unregisteredAt(tokens[2]) == nil)
            // A token already marked may be marked again (a new timestamp, no new room taken).
            #expect(try await emulator.send("POST", "/control/v1/devices/\(tokens[0])/unregister").status == 204)
            #expect(emulator.emulator.tokens.count == 2)
        }
    }

    @Test func unregisteredTokensAreWrittenBehindAndAllReachTheStore() async throws {
        let store = InMemoryEmulatorStore()
        let tokens = (0..<50).map { String(format: "%064x", $0) }
        try await withBoundedEmulator(store: store) { emulator in
            for token in tokens { emulator.emulator.tokens.unregister(token, at: 1_000) }
            #expect(tokens.allSatisfy { emulator.emulator.tokens.unregisteredAt($0) == 1_000 }, "in memory at once")
        }
        // Shutting down wrote every mark.
        #expect(try store.unregisteredTokens().count == tokens.count)
    }

    @Test func aControlTokenGuardsTheControlAndDeviceAPIsOnly() async throws {
        try await withBoundedEmulator({ $0.controlToken = "s3cret-Token" }) { emulator in
            let missing = try await emulator.send("GET", "/control/v1/stats")
            #expect(missing.status == 401)
            #expect(Self.reason(missing) == "Unauthorized")
            #expect(missing.headers.value(for: "content-type") == "application/json")
            for wrong in ["bearer s3cret-Toke", "bearer s3cret-Tokenn", "basic s3cret-Token", "s3cret-Token", "bearer"]
            {
                let refused = try await emulator.send("GET", "/control/v1/stats", headers: [("authorization", wrong)])
                #expect(refused.status == 401, "\(wrong)")
            }
            let allowed = try await emulator.send(
                "GET", "/control/v1/stats", headers: [("authorization", "Bearer s3cret-Token")])
            #expect(allowed.status == 200)
            let device = try await emulator.send(
                "POST", "/device/v1/devices", body: Array(#"{"topic":"com.example.app"}"#.utf8))
            #expect(device.status == 401)
            let registered = try await emulator.send(
                "POST", "/device/v1/devices", headers: [("authorization", "bearer s3cret-Token")],
                body: Array(#"{"topic":"com.example.app"}"#.utf8))
            #expect(registered.status == 201)
            // A simulated device sends the token its endpoint names.
            let loop = emulator.loop
            let endpoint = SimulatedDevice.Endpoint(
                host: "127.0.0.1", port: emulator.emulator.port, controlToken: "s3cret-Token")
            let simulated = try await SimulatedDevice.register(at: endpoint, topic: "com.example.app", on: loop)
            #expect(emulator.emulator.devices.route(for: simulated.token) != nil)
            simulated.close()
            // The provider API keeps its own credentials.
            #expect(try await emulator.push(BoundedEmulator.payload(size: 100)).status == 200)
        }
    }

    @Test func theDefaultsBoundConnections() {
        let configuration = EmulatorConfiguration(keys: [])
        #expect(configuration.firstRequestTimeout == .seconds(10))
        #expect(configuration.maximumConnections == 10_000)
        #expect(configuration.faultLimit == 1000)
        #expect(configuration.unregisteredTokenLimit == 100_000)
        #expect(configuration.controlToken == nil)
    }

    @Test func aConnectionThatNeverSendsARequestIsClosedAfterTheFirstRequestTimeout() async throws {
        try await withBoundedEmulator({ $0.firstRequestTimeout = .milliseconds(300) }) { emulator in
            let open = try #require(await emulator.holdIdleConnection(), "the connection became ready")
            #expect(open >= 0.2, "held until the timeout (\(open) s)")
            #expect(open < 5, "closed long before the 10 s handshake timeout (\(open) s)")
            // A connection that asks is served as before.
            #expect(try await emulator.send("GET", "/control/v1/stats").status == 200)
        }
    }

    @Test func aConnectionOverTheLimitIsClosedAtOnce() async throws {
        try await withBoundedEmulator({
            $0.firstRequestTimeout = .seconds(30)
            $0.maximumConnections = 1
        }) { emulator in
            let server = emulator.emulator.server
            // One connection that sends nothing holds the only slot.
            async let held = emulator.holdIdleConnection()
            await server.waitUntil { $0.accepted >= 1 }
            let over = try? await emulator.send("GET", "/control/v1/stats")
            #expect(over == nil, "refused, not served")
            #expect(server.refusedTotal >= 1)
            await server.shutdown()  // ends the held connection
            #expect(await held != nil)
        }
    }
}
