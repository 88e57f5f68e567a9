import APNs
import Testing

@testable import Emulator

@Suite("Devices: broadcast channels", .timeLimit(.minutes(1)))
struct DeviceBroadcastTests {
    let clock = TestClock()
    let registry: DeviceRegistry
    let payload = Array(#"{"aps":{"event":"update","content-state":{},"timestamp":1}}"#.utf8)

    init() {
        registry = DeviceRegistry(clock: clock.read)
    }

    func subscribed(_ count: Int, channel: String = "Y2hhbm5lbA==") throws -> [String] {
        try (0..<count).map { _ in
            let token = try registry.register(bundleID: "com.example.app", environment: .sandbox)
            try registry.subscribe(token, channelID: channel)
            return token
        }
    }

    @Test("fans out to every online subscriber, and only to subscribers")
    func fanOut() throws {
        let tokens = try subscribed(3)
        let outsider = try registry.register(bundleID: "com.example.app", environment: .sandbox)
        let sinks = try (tokens + [outsider]).map { token in
            let sink = RecordingSink()
            _ = try registry.connect(token, sink: sink)
            return sink
        }
        let outcome = registry.deliverBroadcast(
            bundleID: "com.example.app", channelID: "Y2hhbm5lbA==", payload: payload, expiration: 0,
            storesLatest: false,
            requestID: "req-1")
        #expect(outcome == .init(delivered: 3, stored: 0))
        #expect(sinks.prefix(3).allSatisfy { $0.apnsIDs == ["req-1"] })
        #expect(sinks[3].notifications.isEmpty)
        let note = try #require(sinks[0].notifications.first)
        #expect(note.channelID == "Y2hhbm5lbA==" && note.pushType == "liveactivity")
        #expect(note.topic == "com.example.app.push-type.liveactivity")
        #expect(note.payload == (try JSONValue(parsing: payload)))
    }

    @Test("policy 1 keeps only the latest broadcast for an offline device; policy 0 keeps none")
    func storagePolicies() throws {
        let tokens = try subscribed(1) + subscribed(1, channel: "b3RoZXI=")
        for id in ["one", "two"] {
            registry.deliverBroadcast(
                bundleID: "com.example.app", channelID: "Y2hhbm5lbA==", payload: payload, expiration: nil,
                storesLatest: true, requestID: id)
        }
        let outcome = registry.deliverBroadcast(
            bundleID: "com.example.app", channelID: "b3RoZXI=", payload: payload, expiration: nil, storesLatest: false)
        #expect(outcome == .init(delivered: 0, stored: 0))
        let kept = RecordingSink()
        _ = try registry.connect(tokens[0], sink: kept)
        #expect(kept.apnsIDs == ["two"])
        let none = RecordingSink()
        _ = try registry.connect(tokens[1], sink: none)
        #expect(none.notifications.isEmpty)
    }

    @Test(
        "a stored broadcast lasts 8 hours at most, and never past its expiration",
        arguments: [
            (nil as Int?, 8 * 3600 - 1, true), (nil, 8 * 3600, false), (100, 99, true), (100, 100, false),
            (0, 0, false),
        ])
    func storageLimits(expiresIn: Int?, after: Int, delivered: Bool) throws {
        let token = try subscribed(1)[0]
        registry.deliverBroadcast(
            bundleID: "com.example.app", channelID: "Y2hhbm5lbA==", payload: payload,
            expiration: expiresIn.map { $0 == 0 ? 0 : clock.now + $0 }, storesLatest: true, requestID: "b")
        clock.advance(after)
        let sink = RecordingSink()
        _ = try registry.connect(token, sink: sink)
        #expect(sink.apnsIDs == (delivered ? ["b"] : []))
    }

    @Test("the stored device push comes before stored broadcasts on reconnect")
    func order() throws {
        let token = try subscribed(1)[0]
        registry.deliverBroadcast(
            bundleID: "com.example.app", channelID: "Y2hhbm5lbA==", payload: payload, expiration: nil,
            storesLatest: true, requestID: "broadcast")
        registry.deliver(push("device", to: token, at: clock))
        let sink = RecordingSink()
        _ = try registry.connect(token, sink: sink)
        #expect(sink.apnsIDs == ["device", "broadcast"])
    }

    @Test("subscribing names the field that is wrong")
    func subscribeErrors() throws {
        let token = try registry.register(bundleID: "com.example.app", environment: .sandbox)
        #expect(throws: DeviceError.self) { try registry.subscribe(token, channelID: "") }
        do {
            try registry.subscribe(token, bundleID: "com.other.app", channelID: "x")
            Issue.record("subscribed to another app's channel")
        } catch {
            #expect(error.reason.hasPrefix("bundle-id:"))
        }
        #expect(throws: DeviceError.unknownDevice("ff")) { try registry.subscribe("ff", channelID: "x") }
    }
}
