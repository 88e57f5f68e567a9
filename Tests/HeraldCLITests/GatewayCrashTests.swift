import APNs
import Foundation
import Gateway
import Glibc
import HeraldTestSupport
import Testing

/// `herald gateway` killed with SIGKILL in the middle of a 20,000-device send, then restarted on the
/// same data directory: every device gets the notification, and only the deliveries in flight at the
/// kill may get it twice, with the same apns-id.
@Suite(.timeLimit(.minutes(5)))
struct GatewayCrashTests {
    static let devices = 20_000
    static let claimBatch = 100
    static let sendConcurrency = 200
    /// The lease after which the killed process's claims are sent again: short so the test does not
    /// wait two minutes, well above the time one batch takes (a batch still in flight when its
    /// lease runs out would be sent twice without any crash).
    static let leaseSeconds = 10

    /// The deliveries a kill can leave sent and not recorded, so sent again after the restart: each
    /// of the engine's workers (`DeliveryEngineConfiguration.workers`) has two such batches at most,
    /// one being sent and the one before it being recorded (the batch it claimed ahead is not sent yet).
    static var duplicateBound: Int { 2 * max(2, sendConcurrency / claimBatch) * claimBatch }

    @Test func aKilledGatewayLosesNothing() async throws {
        let scratch = try GatewayScratch()
        let tokens = (0..<Self.devices).map { index in
            let hex = String(index, radix: 16)
            return "a1" + String(repeating: "0", count: 62 - hex.count) + hex
        }
        try await Self.importDevices(tokens, into: scratch.dataDirectory)

        // h2c: 20,000 TLS sends would only slow a debug build down. Every answer is delayed, so
        // the send takes seconds and the kill lands in the middle of it.
        let emulator = try EmulatorProcess(scratch.appFlags)
        defer { _ = emulator.stop() }
        let delay = try Curl.run([
            "--http2-prior-knowledge", "-X", "POST", "--data", #"{"action":"delay","latency-ms":40,"fraction":1}"#,
            emulator.endpoint + "/control/v1/faults",
        ])
        #expect(delay.status == 201, "\(delay)")

        let flags =
            [
                "--data-dir", scratch.dataDirectory, "--endpoint", emulator.endpoint,
                "--claim-batch", "\(Self.claimBatch)", "--send-concurrency", "\(Self.sendConcurrency)",
                "--lease", "\(Self.leaseSeconds)",
            ] + scratch.appFlags
        let first = try GatewayProcess(flags)
        defer { if first.process.isRunning { _ = first.stop() } }
        let api = try GatewayAPI(gateway: first, dataDirectory: scratch.dataDirectory)
        let id = try api.notify(#"{"to":{"tags":["crash"]},"payload":{"aps":{"alert":"Sale starts now"}}}"#)

        // Polled: the gateway is another process. Killed once a tenth of the sends are recorded.
        let clock = ContinuousClock()
        let end = clock.now + .seconds(120)
        while true {
            let counts = try #require(try api.json("GET", "/v1/notifications/\(id)")["counts"] as? [String: Any])
            if let succeeded = counts["succeeded"] as? Int, succeeded >= Self.devices / 10 { break }
            try #require(clock.now < end, "no progress: \(counts)")
            try await Task.sleep(for: .milliseconds(20))
        }
        first.process.send(SIGKILL)
        // ChildProcess reports a death by signal as 128 + the signal.
        #expect(await first.process.waitForExit() == 128 + SIGKILL)
        let acceptedAtKill = try Self.emulatorLog(emulator).count
        #expect(acceptedAtKill > 0 && acceptedAtKill < Self.devices, "the kill came mid-way: \(acceptedAtKill)")
        let cleared = try Curl.run([
            "--http2-prior-knowledge", "-X", "DELETE", emulator.endpoint + "/control/v1/faults",
        ])
        #expect(cleared.status == 204 || cleared.status == 200, "\(cleared)")

        let second = try GatewayProcess(flags)
        defer { _ = second.stop() }
        let restarted = try GatewayAPI(gateway: second, dataDirectory: scratch.dataDirectory)
        let done = try await restarted.waitUntilDone(id, deadline: .seconds(180))
        let counts = try #require(done["counts"] as? [String: Any])
        #expect(counts["succeeded"] as? Int == Self.devices && counts["failed"] as? Int == 0, "\(done)")

        // The gateway's rows: one per device, each with its fixed apns-id.
        let rows = try restarted.deliveries(id)
        #expect(rows.count == Self.devices && rows.allSatisfy { $0.status == "succeeded" })
        var apnsIDs: [String: String] = [:]
        for row in rows { apnsIDs[row.token] = row.apnsID.lowercased() }
        #expect(Set(apnsIDs.keys) == Set(tokens))

        // The emulator's log: every token accepted at least once, a few twice, always the row's apns-id.
        let accepted = try Self.emulatorLog(emulator)
        var times: [String: Int] = [:]
        var foreign = 0
        for entry in accepted {
            times[entry.token, default: 0] += 1
            if apnsIDs[entry.token] != entry.apnsID.lowercased() { foreign += 1 }
        }
        #expect(Set(times.keys) == Set(tokens), "\(Set(tokens).subtracting(times.keys).count) tokens never accepted")
        #expect(foreign == 0, "accepted sends whose apns-id is not their delivery row's")
        let duplicates = times.values.filter { $0 > 1 }
        #expect(duplicates.allSatisfy { $0 == 2 }, "no token accepted three times: \(duplicates.max() ?? 0)")
        #expect(duplicates.count <= Self.duplicateBound, "\(duplicates.count) duplicates > \(Self.duplicateBound)")
        #expect(accepted.count == Self.devices + duplicates.count)
    }

    /// Fills the gateway's store directly (the library, as an import would), before the gateway runs.
    static func importDevices(_ tokens: [String], into dataDirectory: String) async throws {
        let store = try GatewayDataDirectory(path: dataDirectory).openStore()
        var registrations: [DeviceRegistration] = []
        for token in tokens {
            registrations.append(
                DeviceRegistration(
                    bundleID: "com.example.app", token: try DeviceToken(hex: token), environment: .sandbox,
                    tags: ["crash"]))
        }
        let imported = try await store.importDevices(registrations, batchSize: 10_000, now: 1_000)
        #expect(imported == tokens.count)
        let counts = try await store.deviceCounts(bundleID: "com.example.app")
        #expect(counts[.active] == tokens.count)
    }

    /// Every request the emulator accepted (200), oldest first, checked to be the whole log.
    static func emulatorLog(_ emulator: EmulatorProcess) throws -> [(token: String, apnsID: String)] {
        var entries: [(token: String, apnsID: String)] = []
        var cursor: String?
        repeat {
            let page = try Curl.run([
                "--http2-prior-knowledge",
                emulator.endpoint + "/control/v1/deliveries?status=200&limit=1000"
                    + (cursor.map { "&cursor=\($0)" } ?? ""),
            ])
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(page.body.utf8)) as? [String: Any], "\(page)")
            for entry in try #require(object["deliveries"] as? [[String: Any]], "\(page)") {
                entries.append((try #require(entry["token"] as? String), try #require(entry["apns-id"] as? String)))
            }
            cursor = object["next-cursor"] as? String
        } while cursor != nil
        return entries
    }
}
