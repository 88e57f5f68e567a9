import APNs
import Foundation
import HTTP2
import HeraldCLI
import HeraldTestSupport
import Keys
import Synchronization
import Testing

/// docs/JSON.md lists every field of every JSON output; this produces each output for real (an
/// emulator, sends, channels, a device, lint, the control API) and checks its keys against the page,
/// so the page and the code cannot drift apart.
@Suite(.timeLimit(.minutes(1)))
struct JSONFieldsTests {
    /// One documented field: its path (`a.b`, `a[].b`, `a.*`) and whether every sample has it.
    struct Field: Hashable {
        let path: String
        let always: Bool
    }

    /// The tables of docs/JSON.md by output kind (the heading's `name`).
    static func documented() throws -> [String: [Field]] {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/JSON.md")
        let text = try String(contentsOf: page, encoding: .utf8)
        var kinds: [String: [Field]] = [:]
        var current: String?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("### `") {
                current = line.dropFirst(5).prefix { $0 != "`" }.description
                kinds[current ?? ""] = []
            } else if let kind = current, line.hasPrefix("| `") {
                let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                guard cells.count >= 3 else { continue }
                let path = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
                kinds[kind, default: []].append(Field(path: path, always: cells[2] == "always"))
            }
        }
        return kinds
    }

    /// Every key path in `value` (objects and arrays of objects), not looking into `opaque` paths.
    static func paths(_ value: JSONValue, prefix: String = "", opaque: Set<String>) -> Set<String> {
        var found: Set<String> = []
        guard let object = value.objectValue else { return found }
        for member in object.members {
            let path = prefix + member.key
            found.insert(path)
            if opaque.contains(path) { continue }
            if member.value.objectValue != nil {
                found.formUnion(paths(member.value, prefix: path + ".", opaque: opaque))
            } else if let array = member.value.arrayValue {
                for element in array where element.objectValue != nil {
                    found.insert(path + "[]")
                    found.formUnion(paths(element, prefix: path + "[].", opaque: opaque))
                }
            }
        }
        return found
    }

    /// Checks `samples` of `kind` against the page: no key the page does not list, every "always"
    /// key in every sample (when its parent is there).
    static func check(_ kind: String, _ samples: [JSONValue], against page: [String: [Field]]) {
        guard let fields = page[kind] else {
            Issue.record("docs/JSON.md has no table for '\(kind)'")
            return
        }
        #expect(!samples.isEmpty, "no sample of '\(kind)' was produced")
        let listed = Set(fields.map(\.path))
        let opaque = Set(
            fields.filter { field in
                listed.contains(field.path + ".*") || field.path.hasSuffix("payload")
            }.map(\.path))
        for sample in samples {
            let found = paths(sample, opaque: opaque)
            for path in found.sorted() where !path.hasSuffix("[]") {
                let parent = path.split(separator: ".").dropLast().joined(separator: ".")
                let documented = listed.contains(path) || (opaque.contains(parent) && listed.contains(parent + ".*"))
                #expect(
                    documented, "'\(kind)' writes '\(path)', which docs/JSON.md does not list: \(sample.encodedString)")
            }
            for field in fields where field.always && !field.path.hasSuffix(".*") {
                let parent = field.path.split(separator: ".").dropLast().joined(separator: ".")
                guard parent.isEmpty || found.contains(parent) else { continue }
                #expect(
                    found.contains(field.path),
                    "'\(kind)' lacks '\(field.path)', listed as always: \(sample.encodedString)")
            }
        }
    }

    static func lines(_ text: String) throws -> [JSONValue] {
        try text.split(separator: "\n").map { try JSONValue(parsing: Array($0.utf8)) }
    }

    @Test func everyJSONOutputHasTheDocumentedFields() async throws {
        let page = try Self.documented()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-json-\(UUID().uuidString)"
        )
        .path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let keyPath = directory + "/AuthKey.p8"
        try Data(try P256PrivateKey.generate().pkcs8PEM().utf8).write(to: URL(fileURLWithPath: keyPath))
        let credentials = ["--auth-key", keyPath, "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ"]
        let config = """
            {"teams":[{"team-id":"DEF123GHIJ","topics":["com.example.app"],
              "keys":[{"key-id":"ABC123DEFG","auth-key":"AuthKey.p8","environment":"both"}]}]}
            """
        try Data(config.utf8).write(to: URL(fileURLWithPath: directory + "/emulator.json"))

        let port = Promise<Int>()
        let stop = Promise<Bool>()
        var emulatorContext = CommandContext.system
        emulatorContext.standardOutput = { _ in }
        emulatorContext.onListening = { port.fulfil($0) }
        emulatorContext.waitForTermination = { _ = await stop.value }
        let emulator = Task {
            await runHerald(
                [
                    "emulator", "--plaintext", "--listen", "127.0.0.1:0", "--data-dir", directory + "/data",
                    "--config", directory + "/emulator.json",
                ],
                context: emulatorContext)
        }
        let listening = await port.value
        let endpoint = ["--endpoint", "http://127.0.0.1:\(listening)"]
        func herald(_ arguments: [String]) async -> String {
            await ChannelsEndToEndTests.herald(arguments).output
        }
        let loop = try EventLoop(name: "json-fields")
        func control(_ method: String, _ path: String, _ body: String = "") async throws -> JSONValue {
            let answer = try await sendOne(
                on: loop, .init(host: "127.0.0.1", port: listening, tls: nil), path: "/control/v1/" + path,
                method: method, body: Array(body.utf8)
            ).get()
            return try JSONValue(parsing: answer.body)
        }

        let device = await herald(["device", "register", "--topic", "com.example.app"] + endpoint)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let dead = String(repeating: "dd", count: 32)
        _ = try? await control("POST", "devices/\(dead)/unregister")
        let sent = try Self.lines(
            await herald(
                [
                    "send", "--json", "--topic", "com.example.app", "--token", device, "--token", dead, "--body", "hi",
                    "--collapse-id", "c", "--expiration", "2000000000",
                ] + endpoint + credentials))
        let refused = try Self.lines(
            await herald(
                ["send", "--json", "--topic", "com.example.other", "--token", device, "--body", "hi"] + endpoint
                    + credentials))
        Self.check("send-result", sent.dropLast() + refused.dropLast(), against: page)
        Self.check("send-summary", [sent.last, refused.last].compactMap { $0 }, against: page)
        #expect(sent.count == 3 && refused.count == 2)

        let listened = try Self.lines(await herald(["device", "listen", device, "--count", "1"] + endpoint))
        Self.check("device-line", listened, against: page)

        let app = ["--bundle-id", "com.example.app"] + endpoint + credentials
        let created = try Self.lines(await herald(["channels", "create", "--json", "--storage-policy", "1"] + app))
        let channel = created.first?["apns-channel-id"]?.stringValue ?? ""
        var channels = created
        channels += try Self.lines(await herald(["channels", "read", "--json", "--channel", channel] + app))
        channels += try Self.lines(await herald(["channels", "list", "--json"] + app))
        channels += try Self.lines(await herald(["channels", "read", "--json", "--channel", "bm90aGVyZQ=="] + app))
        Self.check("channels", channels, against: page)

        let update = directory + "/update.json"
        try Data(#"{"aps":{"event":"update","timestamp":1767225600,"content-state":{"score":3}}}"#.utf8)
            .write(to: URL(fileURLWithPath: update))
        let broadcast = try Self.lines(
            await herald(
                ["send", "--json", "--channel", channel, "--topic", "com.example.app", update]
                    + endpoint + credentials))
        Self.check("send-broadcast-result", broadcast.filter { $0["summary"] == nil }, against: page)
        _ = await herald(["channels", "delete", "--json", "--channel", channel] + app)

        let lintPayload = directory + "/lint.json"
        try Data(#"{"aps":{"badge":"3"}}"#.utf8).write(to: URL(fileURLWithPath: lintPayload))
        Self.check("lint", try Self.lines(await herald(["lint", "--json", lintPayload])), against: page)

        let requests = directory + "/requests.ndjson"
        try Data(
            ([#"{"token":"\#(dead)","payload":{"aps":{"badge":"3"}}}"#, #"{"token":"\#(dead)","payload":{"aps":{"alert":"hi"}}}"#]
                .joined(separator: "\n")).utf8
        ).write(to: URL(fileURLWithPath: requests))
        let bulk = ["--requests", requests, "--json", "--topic", "com.example.app"]
        Self.check("lint-requests", try Self.lines(await herald(["lint"] + bulk)), against: page)
        Self.check(
            "send-dry-run", try Self.lines(await herald(["send", "--dry-run"] + bulk + credentials)), against: page)

        let fault = try await control("POST", "faults", #"{"action":"reset","token":"\#(dead)","latency-ms":5}"#)
        Self.check("control-faults", [try await control("GET", "faults")], against: page)
        #expect(fault["error-code"] != nil)
        Self.check("control-deliveries", [try await control("GET", "deliveries")], against: page)
        Self.check("control-devices", [try await control("GET", "devices")], against: page)
        Self.check("control-stats", [try await control("GET", "stats")], against: page)
        Self.check(
            "control-error",
            [try await control("GET", "nope"), try await control("GET", "deliveries?colour=red")], against: page)
        Self.check("emulator-config", [try JSONValue(parsing: Array(config.utf8))], against: page)

        await loop.shutdown()
        stop.fulfil(true)
        #expect(await emulator.value == 0)
    }

    /// The test above reads every table of the page: a table added for a new output must come
    /// with the output produced here.
    @Test func everyDocumentedKindIsChecked() throws {
        let checked: Set = [
            "send-result", "send-broadcast-result", "send-summary", "lint", "channels", "device-line",
            "control-deliveries", "control-devices", "control-faults", "control-stats", "control-error",
            "emulator-config", "lint-requests", "send-dry-run",
            "gateway-key",  // checked in GatewayCommandTests.aRegisterKeyRegistersOverBothProtocolsUntilRevoked
            "gateway-device-import-line",  // checked in GatewayDevicesImportTests
            "audit",  // checked in AuditCommandTests.theJSONHasTheDocumentedFields
            "doctor",  // checked in DoctorParseTests.theJSONHasTheDocumentedFields
        ]
        #expect(Set(try Self.documented().keys) == checked)
    }
}
