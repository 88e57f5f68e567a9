import Foundation
import HeraldCLI
import HeraldTestSupport
import Synchronization
import Testing

/// `herald device run` without an emulator: a profile played offline prints its timeline; a bad profile is
/// an error naming the field.
@Suite("herald device run", .timeLimit(.minutes(1)))
struct DeviceRunCommandTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/devices").path

    func run(_ arguments: [String], files: [String: String] = [:]) async -> (
        status: Int32, output: String, errors: String
    ) {
        let output = Mutex("")
        let errors = Mutex("")
        var context = CommandContext.system
        context.standardOutput = { text in output.withLock { $0 += text } }
        context.standardError = { text in errors.withLock { $0 += text } }
        if !files.isEmpty {
            context.readFile = { (path: String) throws(InputError) in
                guard let text = files[path] else { throw InputError("cannot read '\(path)'") }
                return Array(text.utf8)
            }
        }
        let status = await runHerald(arguments, context: context)
        return (status, output.withLock { $0 }, errors.withLock { $0 })
    }

    @Test("the reply example prints the timeline kept beside it")
    func printsTheExampleTimeline() async throws {
        let result = await run(["device", "run", Self.examples + "/reply.json"])
        #expect(result.status == 0, "\(result.errors)")
        let expected = try String(contentsOfFile: Self.examples + "/reply.timeline", encoding: .utf8)
        #expect(result.output == expected)
    }

    @Test("--json prints one object per entry, with the rule and its label")
    func printsJSONLines() async throws {
        let result = await run(["device", "run", Self.examples + "/reply.json", "--json"])
        #expect(result.status == 0, "\(result.errors)")
        let lines = result.output.split(separator: "\n")
        #expect(
            lines.count
                == (try String(contentsOfFile: Self.examples + "/reply.timeline", encoding: .utf8))
                .split(separator: "\n").count)
        let lastLine = try #require(lines.last)
        let last = try #require(try JSONSerialization.jsonObject(with: Data(lastLine.utf8)) as? [String: Any])
        #expect(last["rule"] as? String == "ACTION-TEXT-INPUT" && last["label"] as? String == "D")
        #expect((last["message"] as? String)?.contains("On my way") == true)
    }

    @Test("a bad profile names the field")
    func badProfileNamesTheField() async {
        let profile = #"{"app":{"bundle-id":"a.b","categories":[{"id":"C","actions":[{"title":"x"}]}]},"script":[]}"#
        let result = await run(["device", "run", "p.json"], files: ["p.json": profile])
        #expect(result.status == 1)
        #expect(result.errors == "herald device run: p.json: app.categories[0].actions[0].id: is missing\n")
    }

    @Test("an emulator that refuses the connection is named in the error")
    func refusedEmulator() async throws {
        let refusing = try RefusingPort()
        defer { refusing.close() }
        let url = "http://127.0.0.1:\(refusing.port)"
        for option in ["--endpoint", "--emulator"] {
            let result = await run(["device", "run", Self.examples + "/reply.json", option, url])
            #expect(result.status == 1)
            #expect(result.errors.hasPrefix("herald device run: --endpoint \(url): "), "\(result.errors)")
        }
    }

    @Test("--endpoint names the emulator, --emulator is its alias, HERALD_ENDPOINT alone plays offline")
    func endpointOption() throws {
        func emulator(_ arguments: [String], environment: [String: String] = [:]) throws -> String? {
            guard
                case .device(let options) = try parseCommandLine(
                    ["device", "run", "p.json"] + arguments, environment: environment),
                case .run(_, let emulator, _, _) = options.action
            else { return "not a run" }
            return emulator
        }
        let url = "http://127.0.0.1:8080"
        #expect(try emulator(["--endpoint", url]) == url)
        #expect(try emulator(["--emulator", url]) == url)
        #expect(try emulator(["--endpoint", url, "--emulator", url]) == url)
        #expect(try emulator([], environment: ["HERALD_ENDPOINT": url]) == nil)
        #expect(throws: UsageError.self) {
            try emulator(["--endpoint", url, "--emulator", "http://127.0.0.1:9090"])
        }
    }

    @Test("a missing profile file says so")
    func missingProfile() async {
        let result = await run(["device", "run", "/nonexistent/p.json"])
        #expect(result.status == 1)
        #expect(result.errors.hasPrefix("herald device run: "), "\(result.errors)")
        #expect(result.errors.contains("/nonexistent/p.json"), "\(result.errors)")
    }
}
