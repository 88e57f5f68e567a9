import APNs
import Foundation
import HeraldCLI
import Testing

/// `herald doctor`'s command line, parsed without a process.
@Suite("herald doctor: the command line", .timeLimit(.minutes(1)))
struct DoctorParseTests {
    @Test("a payload file takes lint's header options")
    func payloadWithLintOptions() throws {
        let command = try parseCommandLine(
            [
                "doctor", "--type", "background", "--priority", "10", "--topic", "com.example.app", "-t", "abcd",
                "p.json",
            ])
        #expect(
            command
                == .doctor(
                    DoctorOptions(
                        lint: LintOptions(
                            input: "p.json", pushType: "background", topic: "com.example.app", priority: "10",
                            token: "abcd"), token: "abcd")))
    }

    @Test("--apns-id with --emulator needs no file; --notification needs --gateway")
    func lookups() throws {
        let command = try parseCommandLine(["doctor", "--emulator", "http://127.0.0.1:1", "--apns-id", "X", "--json"])
        #expect(command == .doctor(DoctorOptions(apnsID: "X", emulator: "http://127.0.0.1:1", json: true)))
        #expect(throws: UsageError.missingOption("--gateway")) {
            try parseCommandLine(["doctor", "--notification", "N"])
        }
    }

    @Test(
        "a command line with nothing to diagnose, or a bad timestamp, is a usage error",
        arguments: [
            ["doctor"], ["doctor", "--apns-id", "X"], ["doctor", "--timestamp", "soon", "p.json"],
            ["doctor", "a.json", "b.json"],
        ])
    func usageErrors(arguments: [String]) {
        #expect(throws: UsageError.self) { try parseCommandLine(arguments) }
    }

    @Test("--json writes the fields docs/JSON.md lists, with a cause and without one")
    func theJSONHasTheDocumentedFields() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-doctor-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let payload = directory + "/alert.json"
        try Data(#"{"aps":{"alert":{"title":"Order","body":"Shipped"}}}"#.utf8).write(to: URL(fileURLWithPath: payload))
        let token = String(repeating: "ab", count: 32)
        var samples: [JSONValue] = []
        for extra in [["--reason", "Unregistered"], []] {
            let result = try HeraldBinary.run(
                ["doctor", "--json", "--topic", "com.example.app", "-t", token] + extra + [payload])
            #expect(result.status == (extra.isEmpty ? 0 : 1), "\(result)")
            samples += try JSONFieldsTests.lines(result.stdout)
        }
        #expect(samples.count == 2)
        #expect(samples[0]["cause"]?["id"]?.stringValue == "Unregistered" && samples[1]["cause"]?.isNull == true)
        JSONFieldsTests.check("doctor", samples, against: try JSONFieldsTests.documented())
    }
}
