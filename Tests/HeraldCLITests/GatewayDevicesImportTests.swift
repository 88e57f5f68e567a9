import Foundation
import Testing

/// `herald gateway devices import` through the binary: a file or standard input into the store of
/// a data directory, while the gateway serves it; bad lines by number and field; --strict.
@Suite(.timeLimit(.minutes(2)))
struct GatewayDevicesImportTests {
    static func token(_ n: Int) -> String { String(repeating: String(format: "%08x", n), count: 8) }

    /// A data directory with a store in it (a gateway started and stopped once).
    private func scratchWithStore() throws -> GatewayScratch {
        let scratch = try GatewayScratch()
        let gateway = try GatewayProcess(["--data-dir", scratch.dataDirectory] + scratch.appFlags)
        // Its stderr in the message: under ThreadSanitizer a report there is the only account of a
        // failing status (66).
        let stopped = gateway.stop()
        #expect(stopped.status == 0, "\(stopped.stderr)")
        return scratch
    }

    private func importDevices(_ scratch: GatewayScratch, _ arguments: [String], stdin: String = "") throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        try HeraldBinary.run(
            ["gateway", "devices", "import", "--data-dir", scratch.dataDirectory] + arguments, stdin: stdin,
            environment: [:])
    }

    @Test func aFileImportedWhileTheGatewayServesIsWhatTheAPIReads() throws {
        let scratch = try GatewayScratch()
        let gateway = try GatewayProcess(["--data-dir", scratch.dataDirectory] + scratch.appFlags)
        defer { _ = gateway.stop() }
        let lines = (1...25).map { n in #"{"token":"\#(Self.token(n))","user":"user-\#(n)","tags":["beta"]}"# }
        let text =
            lines.joined(separator: "\n") + "\n"
            + #"{"bundle-id":"com.example.app","token":"\#(Self.token(26))","environment":"production","#
            + #""user":"ada","tags":["a"],"locale":"de-DE","app-version":"3.0"}"#
        JSONFieldsTests.check(
            "gateway-device-import-line", try JSONFieldsTests.lines(text), against: try JSONFieldsTests.documented())
        let file = try scratch.write("devices.ndjson", text)
        let run = try importDevices(scratch, ["--topic", "com.example.app", "--sandbox", file])
        #expect(run.status == 0, "\(run)")
        #expect(
            run.stdout == "herald gateway: imported 26 registrations in 1 transactions; 0 of 26 lines refused\n"
                + "  com.example.app: 26 devices in the store, 26 more than before\n", "\(run.stdout)")
        #expect(run.stderr.isEmpty, "\(run.stderr)")

        let admin = try String(contentsOfFile: scratch.dataDirectory + "/admin-api-key", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let read = try Curl.run([
            "-H", "authorization: Bearer \(admin)", gateway.url + "/v1/apps/com.example.app/devices/\(Self.token(7))",
        ])
        #expect(read.status == 200, "\(read)")
        #expect(read.body.contains(#""user":"user-7""#) && read.body.contains(#""tags":["beta"]"#), "\(read.body)")
        #expect(read.body.contains(#""environment":"sandbox""#), "\(read.body)")
        let last = try Curl.run([
            "-H", "authorization: Bearer \(admin)", gateway.url + "/v1/apps/com.example.app/devices/\(Self.token(26))",
        ])
        #expect(last.body.contains(#""environment":"production""#) && last.body.contains(#""app-version":"3.0""#))
    }

    @Test func badLinesAreReportedByNumberAndFieldAndSkipped() throws {
        let scratch = try scratchWithStore()
        let text = [
            #"{"bundle-id":"com.example.app","token":"\#(Self.token(1))","environment":"sandbox"}"#,
            #"{"bundle-id":"com.example.app","token":"\#(Self.token(2))","environment":"sandbox","tags":["a",""]}"#,
            "",
            #"{"token":"\#(Self.token(3))","environment":"sandbox"}"#,
            #"{"bundle-id":"com.example.app","token":"\#(Self.token(4))","environment":"sandbox"}"#,
        ].joined(separator: "\n")
        let run = try importDevices(scratch, [try scratch.write("devices.ndjson", text)])
        #expect(run.status == 1, "\(run)")
        #expect(
            run.stderr == "herald gateway: line 2: tags[1]: is a string; a tag is a non-empty string\n"
                + "herald gateway: line 4: bundle-id: is missing; give it on the line or with --topic\n",
            "\(run.stderr)")
        #expect(
            run.stdout.hasPrefix("herald gateway: imported 2 registrations in 1 transactions; 2 of 5 lines refused\n"))
        #expect(run.stdout.contains("com.example.app: 2 devices in the store, 2 more than before"), "\(run.stdout)")
    }

    @Test func strictImportsNothingWhenALineIsRefused() throws {
        let scratch = try scratchWithStore()
        let good = #"{"token":"\#(Self.token(1))"}"#
        let file = try scratch.write("devices.ndjson", good + "\n" + #"{"token":"abc"}"# + "\n")
        let run = try importDevices(scratch, ["--strict", "--topic", "com.example.app", "--production", file])
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr.contains("herald gateway: line 2: token: "), "\(run.stderr)")
        #expect(run.stderr.hasSuffix("herald gateway: nothing imported (--strict): 1 of 2 lines refused\n"))
        #expect(run.stdout.isEmpty)
        // The good line alone: its app had no device before, so the first import wrote nothing.
        let again = try importDevices(
            scratch, ["--strict", "--topic", "com.example.app", "--production", try scratch.write("good.ndjson", good)])
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout.contains("com.example.app: 1 devices in the store, 1 more than before"), "\(again)")
    }

    @Test(arguments: [false, true])
    func standardInputIsReadForADash(_ strict: Bool) throws {
        let scratch = try scratchWithStore()
        let text = (1...3).map { #"{"token":"\#(Self.token($0))"}"# }.joined(separator: "\n") + "\n"
        let run = try importDevices(
            scratch, (strict ? ["--strict"] : []) + ["--topic", "com.example.app", "--sandbox", "-"], stdin: text)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("imported 3 registrations in 1 transactions; 0 of 3 lines refused"), "\(run)")
        #expect(run.stdout.contains("com.example.app: 3 devices in the store, 3 more than before"), "\(run)")
    }

    @Test func aDirectoryWithoutAStoreIsRefused() throws {
        let scratch = try GatewayScratch()
        let run = try importDevices(scratch, ["-"])
        #expect(run.status == 1 && run.stderr.contains("holds no gateway store"), "\(run)")
        #expect(!FileManager.default.fileExists(atPath: scratch.dataDirectory))
    }

    @Test(
        arguments: [
            (["devices"], "missing argument ACTION (import)"),
            (["devices", "export", "f"], "ACTION must be import"),
            (["devices", "import"], "missing argument FILE"),
            (["devices", "import", "f", "--scope", "send"], "--scope does not apply to devices import"),
            (["devices", "import", "f", "--listen", "127.0.0.1:1"], "--listen does not apply to devices import"),
            (["devices", "import", "f", "--sandbox", "--production"], "--production cannot be given with --sandbox"),
            (["devices", "import", "f", "--topic", "not a bundle"], "--topic"),
            (["key", "list", "--strict"], "--strict does not apply to this key command"),
        ] as [([String], String)])
    func usageErrorsNameTheFlag(_ arguments: [String], _ expected: String) throws {
        let run = try HeraldBinary.run(["gateway"] + arguments + ["--data-dir", "d"], environment: [:])
        #expect(run.status == 2, "\(run)")
        #expect(run.stderr.hasPrefix("herald gateway: ") && run.stderr.contains(expected), "\(run.stderr)")
    }
}
