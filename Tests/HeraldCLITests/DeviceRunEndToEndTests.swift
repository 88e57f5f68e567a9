import Foundation
import HeraldTestSupport
import Keys
import Testing

/// `herald send` -> `herald emulator` -> `herald device run`, each a real process (issue 14, "What it must
/// show"): the device model on the emulator's device stream, its timeline read from the run's output.
@Suite("herald device run on the emulator", .timeLimit(.minutes(2)))
struct DeviceRunEndToEndTests {
    /// A scratch directory with a provider key; the emulator trusts it.
    final class Scratch {
        let path: String
        let credentials: [String]

        init() throws {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("herald-run-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            let key = path + "/AuthKey.p8"
            try Data(try P256PrivateKey.generate().pkcs8PEM().utf8).write(to: URL(fileURLWithPath: key))
            credentials = ["--auth-key", key, "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ"]
        }

        func write(_ name: String, _ text: String) throws -> String {
            let file = path + "/" + name
            try Data(text.utf8).write(to: URL(fileURLWithPath: file))
            return file
        }

        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    /// `herald device run` as a child process, its output read line by line as it is printed.
    final class DeviceRun {
        let process: ChildProcess
        private let output: FileHandle
        private var buffer = ""
        private(set) var lines: [String] = []

        init(_ arguments: [String]) throws {
            process = try ChildProcess(
                try #require(HeraldBinary.path, "herald binary next to the test bundle"),
                ["device", "run"] + arguments,
                stdout: .pipe, stderr: .pipe)
            output = try #require(process.standardOutput)
        }

        /// Reads until a line contains `text`, and returns it; nil if the output ended first.
        func line(containing text: String) -> String? {
            while true {
                if let line = lines.first(where: { $0.contains(text) }) { return line }
                let chunk = output.availableData
                if chunk.isEmpty { return nil }
                buffer += String(decoding: chunk, as: UTF8.self)
                while let newline = buffer.firstIndex(of: "\n") {
                    lines.append(String(buffer[..<newline]))
                    buffer = String(buffer[buffer.index(after: newline)...])
                }
            }
        }

        /// Waits for the exit; returns the status, all of standard output and standard error.
        func finish() -> (status: Int32, output: [String], errors: String) {
            _ = line(containing: "\u{0}never")
            let status = process.waitUntilExit()
            return (status, lines, String(decoding: process.waitForCapturedErrors(), as: UTF8.self))
        }
    }

    /// The first run of hex digits of at least `length` after `marker` in `line`.
    func hex(after marker: String, in line: String?, length: Int) throws -> String {
        let line = try #require(line)
        let rest = try #require(line.range(of: marker).map { line[$0.upperBound...] }, "\(line)")
        let token = String(rest.prefix { $0.isHexDigit })
        try #require(token.count >= length, "\(line)")
        return token
    }

    func send(_ emulator: EmulatorProcess, _ scratch: Scratch, _ arguments: [String]) throws {
        let sent = try HeraldBinary.run(["send", "--endpoint", emulator.endpoint] + arguments + scratch.credentials)
        #expect(sent.status == 0 && sent.stdout.contains(" 200 "), "\(sent)")
    }

    static let replyProfile = #"""
        {"app": {"bundle-id": "com.example.app",
                 "categories": [{"id": "MESSAGE", "actions": [
                    {"id": "reply", "title": "Reply", "text-input": {"button": "Send", "placeholder": "Message"}}]}],
                 "delegate": {"will-present": ["banner", "list"], "did-receive": true}},
         "user": {"authorization": "allow"},
         "script": [{"launch": {}}, {"request-authorization": ["alert", "sound", "badge"]}, {"register": {}},
                    {"background": {}}, {"wait-for-push": {"timeout": 60}},
                    {"tap-action": {"action": "reply", "text": "On my way"}}]}
        """#

    @Test("the user replies to a pushed message: presented, then didReceive with the typed text")
    func textInputReplyEndToEnd() throws {
        let scratch = try Scratch()
        let emulator = try EmulatorProcess(scratch.credentials)
        defer { _ = emulator.stop() }
        let run = try DeviceRun([try scratch.write("reply.json", Self.replyProfile), "--emulator", emulator.endpoint])
        defer { if run.process.isRunning { run.process.stop() } }
        let token = try hex(after: "registered: token ", in: run.line(containing: "registration ["), length: 64)

        let payload = try scratch.write(
            "message.json", #"{"aps":{"alert":{"title":"Alice","body":"Lunch at 12:30?"},"category":"MESSAGE"}}"#)
        try send(emulator, scratch, ["--topic", "com.example.app", "-t", token, "--collapse-id", "lunch", payload])

        let (status, lines, errors) = run.finish()
        #expect(status == 0, "\(errors)")
        let timeline = lines.joined(separator: "\n")
        let presented = try #require(
            lines.firstIndex { $0.contains(" presented [") && $0.contains("id=lunch") }, "\(timeline)")
        let replied = try #require(lines.firstIndex { $0.contains("the user replied \"On my way\"") }, "\(timeline)")
        let handled = try #require(
            lines.firstIndex { $0.contains("app-woken [ACTION-TEXT-INPUT") && $0.contains("userText \"On my way\"") },
            "\(timeline)")
        #expect(presented < replied && replied < handled, "\(timeline)")
        #expect(lines[presented].contains("\"Alice\" / \"Lunch at 12:30?\""), "\(timeline)")
        print(timeline)
    }

    static let activityProfile = #"""
        {"app": {"bundle-id": "com.example.app", "push-to-start": ["DeliveryAttributes"]},
         "script": [{"launch": {}}, {"request-authorization": ["alert"]}, {"register": {}}, {"background": {}},
                    {"wait-for-push": {"count": 4, "timeout": 60}}]}
        """#

    @Test(
        "a Live Activity: push-to-start, the update token, two updates (the older dropped), an end with a dismissal date"
    )
    func liveActivityEndToEnd() throws {
        let scratch = try Scratch()
        let emulator = try EmulatorProcess(scratch.credentials)
        defer { _ = emulator.stop() }
        let run = try DeviceRun([
            try scratch.write("activity.json", Self.activityProfile), "--emulator", emulator.endpoint, "--until", "4s",
        ])
        defer { if run.process.isRunning { run.process.stop() } }
        let pushToStart = try hex(
            after: "push-to-start token ", in: run.line(containing: "[LA-PUSH-TO-START-TOKEN"), length: 64)
        _ = run.line(containing: "registration [")

        let now = Int(Date().timeIntervalSince1970)
        let activity = ["--type", "liveactivity", "--topic", "com.example.app.push-type.liveactivity"]
        let start = try scratch.write(
            "start.json",
            #"{"aps":{"event":"start","timestamp":\#(now),"attributes-type":"DeliveryAttributes","attributes":{"order":"42"},"content-state":{"eta":"12:30"},"alert":{"title":"Order 42","body":"On its way"}}}"#
        )
        try send(emulator, scratch, activity + ["-t", pushToStart, start])
        let updateToken = try hex(after: "update token ", in: run.line(containing: "[LA-UPDATE-TOKEN"), length: 64)

        let newer = try scratch.write(
            "newer.json", #"{"aps":{"event":"update","timestamp":\#(now + 60),"content-state":{"eta":"12:45"}}}"#)
        let older = try scratch.write(
            "older.json", #"{"aps":{"event":"update","timestamp":\#(now + 30),"content-state":{"eta":"12:40"}}}"#)
        let end = try scratch.write(
            "end.json",
            #"{"aps":{"event":"end","timestamp":\#(now + 90),"content-state":{"eta":"delivered"},"dismissal-date":\#(now + 2)}}"#
        )
        for file in [newer, older, end] { try send(emulator, scratch, activity + ["-t", updateToken, file]) }

        let (status, lines, errors) = run.finish()
        #expect(status == 0, "\(errors)")
        let timeline = lines.joined(separator: "\n")
        let expected = [
            "[LA-START-PUSH", "[LA-UPDATE-TOKEN", #"content-state {"eta":"12:45"}"#, "[LA-ORDER", "[LA-END",
            "[LA-DISMISSED",
        ]
        var position = 0
        for marker in expected {
            let index = try #require(lines[position...].firstIndex { $0.contains(marker) }, "\(marker) in\n\(timeline)")
            position = index
        }
        #expect(lines.contains { $0.contains("[LA-ORDER") && $0.contains("timestamp \(now + 30)") }, "\(timeline)")
        #expect(!lines.contains { $0.contains(#"{"eta":"12:40"}"#) }, "\(timeline)")
        print(timeline)
    }
}
