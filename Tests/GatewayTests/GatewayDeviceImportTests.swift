import APNs
import APNsClient
import Gateway
import Testing

/// `GatewayDeviceImport`: NDJSON lines into the store in batches, each bad line refused by number
/// and field, against every store that keeps devices.
@Suite(.timeLimit(.minutes(2)))
struct GatewayDeviceImportTests {
    private func line(_ n: Int, _ extra: String = "") throws -> String {
        #"{"token":"\#(try token(n).hex)"\#(extra)}"#
    }

    private func run(
        _ text: String, into store: any DeviceStore, importer: GatewayDeviceImport, now: Int = Clock.start
    ) async throws -> (GatewayDeviceImport.Summary, [GatewayDeviceImport.Refusal]) {
        var refusals: [GatewayDeviceImport.Refusal] = []
        let summary = try await importer.run(MemoryLineReader(text), into: store, now: now) { refusals.append($0) }
        return (summary, refusals)
    }

    @Test(arguments: StoreKind.allCases)
    func importsEveryFieldInBatchesAndCountsTheAppsDevices(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        _ = try await fixture.store.upsertDevice(try registration(99), now: Clock.start)
        var lines = [
            try line(
                1,
                #","bundle-id":"com.example.other","environment":"sandbox","user":"ada","tags":["b","a","b"],"#
                    + #""locale":"en-GB","app-version":"2.1""#)
        ]
        for n in 2...5 { lines.append(try line(n)) }
        let importer = GatewayDeviceImport(bundleID: bundleID, environment: .production, batchSize: 2)
        let (summary, refusals) = try await run(
            lines.joined(separator: "\n") + "\n\n", into: fixture.store, importer: importer)
        #expect(refusals.isEmpty)
        #expect(summary.lines == 6)  // the blank line counts as a line, and is skipped
        #expect(summary.imported == 5)
        #expect(summary.batches == 3)
        #expect(summary.devicesBefore == [bundleID: 1, "com.example.other": 0])
        #expect(summary.devicesAfter == [bundleID: 5, "com.example.other": 1])
        let store = try fixture.reopened()
        let other = try #require(try await store.device(bundleID: "com.example.other", token: try token(1)))
        #expect(other.environment == .sandbox)
        #expect(other.user == "ada")
        #expect(other.tags == ["a", "b"])
        #expect(other.registration.locale == "en-GB")
        #expect(other.registration.appVersion == "2.1")
        #expect(other.registeredAt == Clock.start)
        #expect(try await store.device(bundleID: bundleID, token: try token(5))?.environment == .production)
    }

    @Test(arguments: StoreKind.allCases)
    func aBadLineIsRefusedByNumberAndFieldAndTheOthersImported(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        let text = [
            try line(1),
            try line(2, #","tags":["a",3]"#),
            #"{"token":"xyz"}"#,
            "not json",
            try line(3, #","appVersion":"1""#),
            #"{"user":"ada"}"#,
            try line(4, #","bundle-id":"bad bundle""#),
            try line(5, #","environment":"staging""#),
            try line(6),
        ].joined(separator: "\n")
        let importer = GatewayDeviceImport(bundleID: bundleID, environment: .sandbox)
        let (summary, refusals) = try await run(text, into: fixture.store, importer: importer)
        #expect(refusals.map(\.line) == [2, 3, 4, 5, 6, 7, 8])
        #expect(refusals.map(\.field) == ["tags[1]", "token", nil, "appVersion", "token", "bundle-id", "environment"])
        #expect(refusals[0].description == "line 2: tags[1]: is a number; a tag is a non-empty string")
        #expect(refusals[4].message.contains("is missing"))
        #expect(summary.imported == 2)
        #expect(summary.refused == 7)
        #expect(summary.lines == 9)
        #expect(try await fixture.store.deviceCounts(bundleID: bundleID)[.active] == 2)
    }

    @Test
    func aLineWithoutBundleIDOrEnvironmentIsRefusedWithoutDefaults() async throws {
        let fixture = try GatewayStoreFixture(.memory)
        let importer = GatewayDeviceImport()
        let (summary, refusals) = try await run(
            try line(1) + "\n" + (try line(2, #","bundle-id":"com.example.app""#)), into: fixture.store,
            importer: importer)
        #expect(refusals.map(\.field) == ["bundle-id", "environment"])
        #expect(refusals[1].message.contains("--sandbox or --production"))
        #expect(summary.imported == 0)
    }

    @Test
    func aLineOverTheLimitIsRefusedAndTheNextImported() async throws {
        let fixture = try GatewayStoreFixture(.memory)
        let text = (try line(1, #","user":"\#(String(repeating: "u", count: 200))""#)) + "\n" + (try line(2))
        var refusals: [GatewayDeviceImport.Refusal] = []
        let summary = try await GatewayDeviceImport(bundleID: bundleID, environment: .sandbox).run(
            MemoryLineReader(text, maximumLineBytes: 100), into: fixture.store, now: Clock.start
        ) { refusals.append($0) }
        #expect(refusals == [GatewayDeviceImport.Refusal(line: 1, field: nil, message: "is longer than 100 bytes")])
        #expect(summary.imported == 1)
    }

    @Test
    func checkReportsEveryRefusalAndWritesNothing() throws {
        var refusals: [GatewayDeviceImport.Refusal] = []
        let importer = GatewayDeviceImport(bundleID: bundleID, environment: .sandbox)
        let summary = try importer.check(MemoryLineReader(try line(1) + "\n{}\n" + (try line(2)))) {
            refusals.append($0)
        }
        #expect(summary.lines == 3 && summary.refused == 1 && summary.imported == 0)
        #expect(refusals.map(\.description) == ["line 2: token: is missing; it is required"])
    }

    @Test(arguments: StoreKind.allCases)
    func aReimportRefreshesRegisteredAtAndRevivesAPrunedToken(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        let importer = GatewayDeviceImport(bundleID: bundleID, environment: .production)
        let text = try line(1, #","tags":["old"]"#) + "\n" + (try line(2))
        _ = try await run(text, into: fixture.store, importer: importer, now: Clock.start)
        let pruned = try await fixture.store.prune(
            .invalidateForTopic(statusReason: "DeviceTokenNotForTopic"), bundleID: bundleID, kind: .device,
            token: try token(1).hex)
        #expect(pruned)
        #expect(try await fixture.store.device(bundleID: bundleID, token: try token(1))?.status == .invalid)
        let (summary, _) = try await run(
            try line(1, #","tags":["new"]"#), into: fixture.store, importer: importer, now: Clock.start + 5_000)
        #expect(summary.devicesBefore == [bundleID: 2] && summary.devicesAfter == [bundleID: 2])
        let device = try #require(try await fixture.reopened().device(bundleID: bundleID, token: try token(1)))
        #expect(device.status == .active)
        #expect(device.statusReason == nil)
        #expect(device.registeredAt == Clock.start + 5_000)
        #expect(device.tags == ["new"])
        #expect(try await fixture.store.device(bundleID: bundleID, token: try token(2))?.registeredAt == Clock.start)
    }
}
