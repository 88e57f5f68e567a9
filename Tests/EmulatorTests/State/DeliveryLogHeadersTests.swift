import APNs
import APNsClient
import Emulator
import HTTP2
import Keys
import Testing

/// The delivery log keeps what the request asked for: `apns-collapse-id`, `apns-expiration` and
/// `apns-priority`, on accepted and refused pushes alike, and across a restart on a store.
@Suite(.timeLimit(.minutes(1)))
struct DeliveryLogHeadersTests {
    @Test(arguments: StoreKind.allCases)
    func collapseIDExpirationAndPriorityAreLoggedAndKept(_ kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let key = try P256PrivateKey.generate()
        let restarts = EmulatorRestartTests()
        var accepted = try restarts.note(String(repeating: "aa", count: 32))
        accepted.priority = try Priority(headerValue: "5")
        accepted.collapseID = try CollapseID("score-update")
        accepted.expiration = .at(unixSeconds: 2_000_000_000)
        var refused = accepted
        refused.topic = try Topic("com.example.other")  // not the emulator's app: 400 TopicDisallowed
        refused.collapseID = try CollapseID("another")
        refused.expiration = .immediately
        var plain = try restarts.note(String(repeating: "bb", count: 32))
        plain.topic = try Topic("com.example.other")
        var before: [JSONValue] = []

        try await restarts.withEmulator(fixture.store, key: key) { emulator, client in
            _ = try await client.send(accepted)
            _ = await client.result(for: refused)
            _ = await client.result(for: plain)
            let listing = try JSONValue(
                parsing: try await ControlClient.get(port: emulator.port, path: "/control/v1/deliveries"))
            before = listing["deliveries"]?.arrayValue ?? []
            #expect(before.count == 3)
            #expect(before.first?["status"] == 200)
            #expect(before.first?["collapse-id"] == "score-update")
            #expect(before.first?["expiration"] == 2_000_000_000)
            #expect(before.first?["priority"] == 5)
            #expect(before.dropFirst().first?["status"] == 400)
            #expect(before.dropFirst().first?["collapse-id"] == "another")
            #expect(before.dropFirst().first?["expiration"] == 0)
            #expect(before.dropFirst().first?["priority"] == 5)
            #expect(before.last?["collapse-id"] == .null && before.last?["expiration"] == .null)
            #expect(before.last?["priority"] == 10, "APNs's default when the request gives none")
        }
        try await restarts.withEmulator(try fixture.reopened(), key: key) { emulator, _ in
            let listing = try JSONValue(
                parsing: try await ControlClient.get(port: emulator.port, path: "/control/v1/deliveries"))
            #expect(listing["deliveries"]?.arrayValue == before, "every field, read back from the store")
        }
    }
}
