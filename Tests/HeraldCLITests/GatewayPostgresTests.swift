import Foundation
import Gateway
import Glibc
import HeraldTestSupport
import Testing

/// Two `herald gateway` processes on one PostgreSQL database (the test server) sending one fan-out
/// through the emulator: they share it, each device gets one accepted notification; and when one
/// is killed mid-way, the other finishes its claims once their leases run out.
@Suite(.timeLimit(.minutes(6)))
struct GatewayPostgresTests {
    static let devices = 3_000
    static let claimBatch = 50
    static let sendConcurrency = 100
    /// Short, so the kill test does not wait long; far above one batch's time at the emulator's delay.
    /// A batch still in flight when its lease runs out is claimed and sent again by the other process
    /// (at least once, by design), so under a sanitizer, where a gateway runs many times slower, the
    /// lease is stretched by `HERALD_TEST_TIME_SCALE` (scripts/test-asan and test-tsan set it): with
    /// 5 s, an instrumented run sent one batch of 50 devices twice.
    static let leaseSeconds = 5 * timeScale

    /// `HERALD_TEST_TIME_SCALE` (a whole number), or 1.
    static var timeScale: Int {
        getenv("HERALD_TEST_TIME_SCALE").flatMap { Int(String(cString: $0)) }.map { max(1, $0) } ?? 1
    }

    /// What a killed process can leave claimed and unrecorded: three batches per worker at most
    /// (one claimed ahead, one being sent, one being recorded).
    static var duplicateBound: Int { 3 * max(2, sendConcurrency / claimBatch) * claimBatch }

    @Test func twoGatewaysShareOneFanOutAndSendEachDeviceOnce() async throws {
        let run = try await TwoGateways(devices: Self.devices, latencyMilliseconds: 10)
        defer { run.stop() }
        let id = try run.api.notify(#"{"to":{"tags":["pg"]},"payload":{"aps":{"alert":"Both of us"}}}"#)
        let done = try await run.api.waitUntilDone(id, deadline: .seconds(240))
        let counts = try #require(done["counts"] as? [String: Any])
        #expect(counts["succeeded"] as? Int == Self.devices && counts["failed"] as? Int == 0, "\(done)")

        let accepted = try GatewayCrashTests.emulatorLog(run.emulator)
        #expect(accepted.count == Self.devices, "each device once: \(accepted.count)")
        #expect(Set(accepted.map { $0.apnsID.lowercased() }).count == Self.devices)
        #expect(Set(accepted.map(\.token)) == Set(run.tokens))

        let shares = try run.gateways.map { try GatewayShare(of: $0, api: run.api) }
        #expect(shares.allSatisfy { $0.succeeded > 0 }, "both processes sent: \(shares)")
        #expect(shares.map(\.succeeded).reduce(0, +) == Self.devices, "\(shares)")
        #expect(Set(shares.map(\.claimer)).count == 2, "two instances: \(shares)")
        print("GatewayPostgresTests: \(Self.devices) devices, sends per process: \(shares)")
    }

    @Test func theOtherGatewayFinishesAKilledOnesClaimsAfterTheirLeases() async throws {
        // A longer delay than above: a claimed batch stays in flight for half a second, far longer
        // than the poll below takes to see it, so the kill lands while the claims are held even when
        // the machine is slow (with 100 ms, a batch could be recorded between the check and the kill,
        // leaving nothing in flight to hand over).
        let run = try await TwoGateways(devices: Self.devices, latencyMilliseconds: 500)
        defer { run.stop() }
        let id = try run.api.notify(#"{"to":{"tags":["pg"]},"payload":{"aps":{"alert":"Still here"}}}"#)
        // Polled: the gateways are other processes. The second is killed once it has sent some and
        // the database shows it holding claims (between two batches it may hold none, and near the
        // end of the fan-out the first may have claimed all that is left).
        let store = try PostgresGatewayStore(conninfo: run.database)
        let clock = ContinuousClock()
        let end = clock.now + .seconds(120)
        var killed = try GatewayShare(of: run.gateways[1], api: run.api)
        while true {
            try #require(clock.now < end, "the second gateway never held claims after sending some: \(killed)")
            if killed.succeeded >= 100 {
                let held = try await Self.rows(id, in: store).contains {
                    $0.status == .pending && $0.claimedBy == killed.claimer
                }
                if held { break }
            }
            try await Task.sleep(for: .milliseconds(20))
            killed = try GatewayShare(of: run.gateways[1], api: run.api)
        }
        run.gateways[1].process.send(SIGKILL)
        #expect(await run.gateways[1].process.waitForExit() == 128 + SIGKILL)
        let acceptedAtKill = try GatewayCrashTests.emulatorLog(run.emulator).count
        #expect(acceptedAtKill < Self.devices, "the kill came mid-way: \(acceptedAtKill)")
        // What the killed process held: rows still pending under its claim, which only the other
        // process can finish, once their leases run out.
        let orphaned = try await Self.rows(id, in: store).filter {
            $0.status == .pending && $0.claimedBy == killed.claimer
        }
        #expect(!orphaned.isEmpty && orphaned.count <= Self.duplicateBound, "\(orphaned.count) claims in flight")

        let done = try await run.api.waitUntilDone(id, deadline: .seconds(240))
        let counts = try #require(done["counts"] as? [String: Any])
        #expect(counts["succeeded"] as? Int == Self.devices && counts["failed"] as? Int == 0, "\(done)")

        let finished = Dictionary(uniqueKeysWithValues: try await Self.rows(id, in: store).map { ($0.id, $0) })
        #expect(
            orphaned.allSatisfy { finished[$0.id]?.status == .succeeded && finished[$0.id]?.claimedBy == nil },
            "the killed process's claims were sent by the other")
        var apnsIDs: [String: String] = [:]
        for row in try run.api.deliveries(id) { apnsIDs[row.token] = row.apnsID.lowercased() }
        let accepted = try GatewayCrashTests.emulatorLog(run.emulator)
        var times: [String: Int] = [:]
        var foreign = 0
        for entry in accepted {
            times[entry.token, default: 0] += 1
            if apnsIDs[entry.token] != entry.apnsID.lowercased() { foreign += 1 }
        }
        #expect(Set(times.keys) == Set(run.tokens), "\(Set(run.tokens).subtracting(times.keys).count) never accepted")
        #expect(foreign == 0, "accepted sends whose apns-id is not their delivery row's")
        let duplicates = times.values.filter { $0 > 1 }
        #expect(duplicates.allSatisfy { $0 == 2 }, "no token accepted three times: \(duplicates.max() ?? 0)")
        #expect(duplicates.count <= Self.duplicateBound, "\(duplicates.count) duplicates > \(Self.duplicateBound)")
        print(
            "GatewayPostgresTests: killed the second gateway at \(acceptedAtKill) of \(Self.devices) accepted; "
                + "\(orphaned.count) claims left in flight, \(duplicates.count) sent twice (bound "
                + "\(Self.duplicateBound)), first gateway: \(try GatewayShare(of: run.gateways[0], api: run.api))")
    }

    /// Every delivery row of the notification, read from the database.
    static func rows(_ id: String, in store: PostgresGatewayStore) async throws -> [Delivery] {
        var rows: [Delivery] = []
        var cursor: Int?
        repeat {
            let page = try await store.deliveries(notificationID: id, after: cursor, limit: 1_000)
            rows += page.deliveries
            cursor = page.nextCursor
        } while cursor != nil
        return rows
    }
}

/// An emulator (h2c, every answer delayed) and two gateways on one fresh database holding
/// `devices` devices tagged `pg`, imported with `herald gateway devices import --database`.
struct TwoGateways {
    let scratch: GatewayScratch
    let emulator: EmulatorProcess
    let gateways: [GatewayProcess]
    let api: GatewayAPI
    let tokens: [String]
    /// The database's connection string.
    let database: String

    init(devices: Int, latencyMilliseconds: Int) async throws {
        scratch = try GatewayScratch()
        database = try PostgresTestServer.makeDatabase()
        tokens = (0..<devices).map { index in
            let hex = String(index, radix: 16)
            return "b2" + String(repeating: "0", count: 62 - hex.count) + hex
        }
        let file = try scratch.write(
            "devices.ndjson", tokens.map { #"{"token":"\#($0)","tags":["pg"]}"# }.joined(separator: "\n") + "\n")
        let imported = try HeraldBinary.run([
            "gateway", "devices", "import", "--database", database, "--topic", "com.example.app", "--sandbox", file,
        ])
        #expect(imported.status == 0 && imported.stdout.contains("imported \(devices) registrations"), "\(imported)")

        emulator = try EmulatorProcess(scratch.appFlags)
        let delay = try Curl.run([
            "--http2-prior-knowledge", "-X", "POST", "--data",
            #"{"action":"delay","latency-ms":\#(latencyMilliseconds),"fraction":1}"#,
            emulator.endpoint + "/control/v1/faults",
        ])
        #expect(delay.status == 201, "\(delay)")
        let flags =
            [
                "--database", database, "--endpoint", emulator.endpoint,
                "--claim-batch", "\(GatewayPostgresTests.claimBatch)",
                "--send-concurrency", "\(GatewayPostgresTests.sendConcurrency)",
                "--lease", "\(GatewayPostgresTests.leaseSeconds)",
            ] + scratch.appFlags
        // The first writes the admin key to its data directory; the second finds the key in the
        // database and has no directory at all.
        let first = try GatewayProcess(flags + ["--data-dir", scratch.dataDirectory])
        let second = try GatewayProcess(flags)
        gateways = [first, second]
        api = try GatewayAPI(gateway: first, dataDirectory: scratch.dataDirectory)
    }

    func stop() {
        for gateway in gateways where gateway.process.isRunning { _ = gateway.stop() }
        _ = emulator.stop()
    }
}

/// What one gateway process says it sent (its `/metrics`), and which instance it is.
struct GatewayShare: CustomStringConvertible {
    let claimer: String
    let succeeded: Int

    init(of gateway: GatewayProcess, api: GatewayAPI) throws {
        let metrics = try GatewayAPI(url: gateway.url, adminKey: api.adminKey).call("GET", "/metrics")
        try #require(metrics.status == 200, "\(metrics)")
        let lines = metrics.body.split(separator: "\n")
        let success = #"herald_gateway_sends_total{status="succeeded",reason=""} "#
        succeeded = lines.first { $0.hasPrefix(success) }.flatMap { Int($0.dropFirst(success.count)) } ?? 0
        let info = #"herald_gateway_instance_info{claimer=""#
        let line = try #require(lines.first { $0.hasPrefix(info) }, "\(metrics.body)")
        claimer = String(line.dropFirst(info.count).prefix { $0 != "\"" })
    }

    var description: String { "\(claimer): \(succeeded)" }
}

extension GatewayAPI {
    /// The API of another gateway process with the same key (both serve one database).
    init(url: String, adminKey: String) {
        self.url = url
        self.adminKey = adminKey
    }
}
