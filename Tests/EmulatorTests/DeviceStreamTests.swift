import APNs
import APNsClient
import Emulator
import HTTP2
import HeraldTestSupport
import Testing

/// Simulated devices against a real emulator on loopback: the provider pushes with Herald's
/// client, the device listens on its HTTP/2 stream.
@Suite("Devices: streams over loopback", .timeLimit(.minutes(1)))
struct DeviceStreamTests {
    @Test("a listening device gets each accepted push with its headers and payload")
    func listen() async throws {
        try await withDeviceEmulator { harness in
            let device = try await harness.register()
            var stream = device.notifications().makeAsyncIterator()
            await harness.emulator.devices.waitForPresence(device.token, online: true)
            let expiration = Int(ProviderTokenCache.systemClock()) + 3600
            let id = APNsID.random()
            let answer = try await harness.push(
                to: device.token, collapseID: "score", expiration: .at(unixSeconds: expiration), id: id)
            #expect((try? answer.get()) != nil)
            let note = try #require(try await stream.next())
            #expect(note.apnsID == id.value && note.token == device.token)
            #expect(note.topic == "com.example.app" && note.pushType == "alert" && note.priority == 10)
            #expect(note.collapseID == "score" && note.expiration == expiration)
            #expect(
                note.payload.isEquivalent(
                    to: try JSONValue(parsing: Payload.alert(title: "Hi", body: "There").encoded().bytes)))
            device.close()
        }
    }

    @Test("offline: the latest push waits and arrives first when the device listens")
    func storeAndForward() async throws {
        try await withDeviceEmulator { harness in
            let device = try await harness.register()
            let first = APNsID.random()
            let second = APNsID.random()
            let live = APNsID.random()
            try await harness.push(to: device.token, collapseID: "c", id: first)
            try await harness.push(to: device.token, collapseID: "c", id: second)
            var stream = device.notifications().makeAsyncIterator()
            #expect(try await stream.next()?.apnsID == second.value)
            try await harness.push(to: device.token, id: live)
            #expect(try await stream.next()?.apnsID == live.value)
            device.close()
        }
    }

    @Test("apns-expiration 0 is not kept for an offline device")
    func expirationZero() async throws {
        try await withDeviceEmulator { harness in
            let device = try await harness.register()
            try await harness.push(to: device.token, expiration: .immediately)
            var stream = device.notifications().makeAsyncIterator()
            await harness.emulator.devices.waitForPresence(device.token, online: true)
            let after = APNsID.random()
            try await harness.push(to: device.token, id: after)
            #expect(try await stream.next()?.apnsID == after.value)
            device.close()
        }
    }

    @Test("ending the stream or losing the connection makes the device offline", arguments: [false, true])
    func offlineWhenTheStreamEnds(closeConnection: Bool) async throws {
        try await withDeviceEmulator { harness in
            let device = try await harness.register()
            let listener = Task {
                for try await _ in device.notifications() {}
            }
            await harness.emulator.devices.waitForPresence(device.token, online: true)
            if closeConnection { device.close() } else { listener.cancel() }
            await harness.emulator.devices.waitForPresence(device.token, online: false)
            #expect(!harness.emulator.devices.isOnline(device.token))
            try await harness.push(to: device.token)
            #expect(harness.emulator.devices.storedNotifications(for: device.token).count == 1)
            listener.cancel()
            device.close()
        }
    }

    @Test("unregistering ends the stream; later pushes answer 410 Unregistered with a timestamp")
    func unregister() async throws {
        try await withDeviceEmulator { harness in
            let device = try await harness.register()
            let listener = Task { () -> Int in
                var count = 0
                for try await _ in device.notifications() { count += 1 }
                return count
            }
            await harness.emulator.devices.waitForPresence(device.token, online: true)
            try await device.unregister()
            #expect(try await listener.value == 0, "the stream ended cleanly")
            let answer = try await harness.push(to: device.token)
            guard case .failure(.rejected(let rejection)) = answer else {
                Issue.record("expected 410, got \(answer)")
                return
            }
            #expect(rejection.status == 410 && rejection.reason == .unregistered)
            #expect(rejection.timestampMilliseconds != nil)
            await #expect(throws: SimulatedDeviceError.self) { try await device.unregister() }
            device.close()
        }
    }

    @Test("a subscribed device gets the channel's broadcasts on its stream")
    func broadcast() async throws {
        try await withDeviceEmulator { harness in
            let device = try await harness.register()
            try await device.subscribe(channelID: "dGVhbS1zY29yZQ==")
            var stream = device.notifications().makeAsyncIterator()
            await harness.emulator.devices.waitForPresence(device.token, online: true)
            let outcome = harness.emulator.devices.deliverBroadcast(
                bundleID: "com.example.app", channelID: "dGVhbS1zY29yZQ==",
                payload: Array(#"{"aps":{"event":"update","timestamp":1,"content-state":{}}}"#.utf8), expiration: nil,
                storesLatest: true)
            #expect(outcome == .init(delivered: 1, stored: 0))
            let note = try #require(try await stream.next())
            #expect(note.channelID == "dGVhbS1zY29yZQ==" && note.pushType == "liveactivity")
            device.close()
        }
    }

    @Test("a Live Activity token routes pushes to its device", arguments: [DeviceTokenKind.liveActivity, .pushToStart])
    func liveActivityToken(kind: DeviceTokenKind) async throws {
        try await withDeviceEmulator { harness in
            let device = try await harness.register()
            let token = try await device.registerToken(kind)
            #expect(token.count == 160 && token != device.token)
            var stream = device.notifications().makeAsyncIterator()
            await harness.emulator.devices.waitForPresence(device.token, online: true)
            let answer = try await harness.push(
                to: token, topic: "com.example.app.push-type.liveactivity", pushType: .liveactivity,
                payload: .liveActivity(
                    kind == .pushToStart ? .start : .update, timestamp: 1, contentState: JSONObject()))
            #expect((try? answer.get()) != nil, "\(answer)")
            let note = try #require(try await stream.next())
            #expect(note.token == token && note.pushType == "liveactivity")
            device.close()
        }
    }

    @Test("bad device requests get a JSON reason naming the field")
    func badRequests() async throws {
        try await withDeviceEmulator { harness in
            await #expect { try await harness.register("") } throws: { error in
                (error as? SimulatedDeviceError)?.status == 400
                    && (error as? SimulatedDeviceError)?.reason.hasPrefix("topic:") == true
            }
            let stranger = try SimulatedDevice.attach(
                token: String(repeating: "0f", count: 32), at: harness.endpoint, on: harness.deviceLoop)
            await #expect { for try await _ in stranger.notifications() {} } throws: { error in
                (error as? SimulatedDeviceError)?.status == 404
                    && (error as? SimulatedDeviceError)?.reason.hasPrefix("token:") == true
            }
            stranger.close()
            let h2c = HTTP2ClientConnection.Configuration(host: "127.0.0.1", port: harness.emulator.port, tls: nil)
            let cases: [(String, String, [UInt8], Int, String)] = [
                (
                    "POST", "/device/v1/devices", Array(#"{"topic":"com.example.app","environment":"staging"}"#.utf8),
                    400, "environment:"
                ),
                ("POST", "/device/v1/devices", Array("topic=x".utf8), 400, "body:"),
                ("POST", "/device/v1/devices", Array(#"{"topic":7}"#.utf8), 400, "topic:"),
                ("GET", "/device/v1/devices", [], 405, "method:"),
                ("GET", "/device/v1/devices/zz/notifications", [], 400, "token:"),
                ("POST", "/device/v1/elsewhere", [], 404, "path:"),
            ]
            for (method, path, body, status, prefix) in cases {
                let response = try await sendOne(on: harness.deviceLoop, h2c, path: path, method: method, body: body)
                    .get()
                let reason = (try? JSONValue(parsing: response.body))?["reason"]?.stringValue ?? ""
                #expect(
                    response.status == status && reason.hasPrefix(prefix),
                    "\(method) \(path): \(response.status) \(reason)")
            }
        }
    }
}

/// The control API's view of simulated devices, and its unregister for them.
@Suite(.timeLimit(.minutes(1)))
struct DeviceControlTests {
    @Test func devicesAreListedWithWhatWaitsForThem() async throws {
        try await withDeviceEmulator { harness in
            let listening = try await harness.register()
            let away = try await harness.register("com.example.other")
            let activity = try await listening.registerToken(.liveActivity)
            try await away.subscribe(channelID: "dGVhbS1zY29yZQ==")
            var stream = listening.notifications().makeAsyncIterator()
            await harness.emulator.devices.waitForPresence(listening.token, online: true)
            _ = try await harness.push(to: away.token, topic: "com.example.other").get()

            let answer = try await ControlClient.request(method: "GET", port: harness.emulator.port, path: "/control/v1/devices")
            #expect(answer.status == 200)
            let devices = try JSONValue(parsing: answer.body)["devices"]?.arrayValue ?? []
            let byToken = Dictionary(uniqueKeysWithValues: devices.compactMap { device in
                device["token"]?.stringValue.map { ($0, device) }
            })
            #expect(byToken.count == 2)
            #expect(byToken[listening.token]?["online"] == true)
            #expect(byToken[listening.token]?["tokens"]?.arrayValue?.first?["token"]?.stringValue == activity)
            #expect(byToken[away.token]?["online"] == false)
            #expect(byToken[away.token]?["stored-notifications"] == 1)
            #expect(byToken[away.token]?["subscriptions"]?.arrayValue == ["com.example.other/dGVhbS1zY29yZQ=="])
            let filtered = try await ControlClient.get(port: harness.emulator.port, path: "/control/v1/devices?topic=com.example.other")
            #expect(try JSONValue(parsing: filtered)["devices"]?.arrayValue?.count == 1)

            // Unregistering a device through the control API ends its stream and kills every token.
            let unregistered = try await ControlClient.request(
                method: "POST", port: harness.emulator.port, path: "/control/v1/devices/\(listening.token)/unregister")
            #expect(unregistered.status == 204)
            #expect(try await stream.next() == nil, "the device's stream ends")
            let result = try await harness.push(to: activity)
            #expect(result.failure?.status == 410)
            listening.close()
            away.close()
        }
    }
}

extension Result where Failure == APNsClientError {
    var failure: APNsRejection? {
        if case .failure(.rejected(let rejection)) = self { return rejection }
        return nil
    }
}
