import Foundation
import HeraldTestSupport
import Testing

/// `herald doctor` through real processes (issue 16, "What it must show"): `herald emulator`, `herald send`,
/// `herald device` and `herald doctor` as child processes on loopback; each answer names the cause first.
@Suite("herald doctor end to end", .timeLimit(.minutes(3)))
struct DoctorEndToEndTests {
    typealias Scratch = DeviceRunEndToEndTests.Scratch

    static let alert = #"{"aps":{"alert":{"title":"Order","body":"Shipped"}}}"#
    static let token = String(repeating: "5a", count: 32)

    /// `herald send` one payload; returns its one result line's apns-id (`token status apns-id ...`).
    func send(
        _ emulator: EmulatorProcess, _ scratch: Scratch, _ payload: String, _ arguments: [String],
        status: String = "200"
    ) throws -> String {
        let file = try scratch.write("payload-\(UUID().uuidString).json", payload)
        let sent = try HeraldBinary.run(
            ["send", "--endpoint", emulator.endpoint, "--topic", "com.example.app"] + arguments + [file]
                + scratch.credentials)
        let line = try #require(sent.stdout.split(separator: "\n").first { $0.contains(" \(status) ") }, "\(sent)")
        let fields = line.split(separator: " ")
        try #require(fields.count >= 3, "\(sent)")
        return String(fields[2])
    }

    /// `herald doctor` with `arguments`; its exit status and output.
    func doctor(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let result = try HeraldBinary.run(["doctor"] + arguments)
        print(result.stdout)
        return result
    }

    /// A simulated device of com.example.app registered with `emulator` (`extra`: more flags); its token.
    func register(_ emulator: EmulatorProcess, _ extra: [String] = []) throws -> String {
        let registered = try HeraldBinary.run(
            ["device", "register", "--endpoint", emulator.endpoint, "--topic", "com.example.app"] + extra)
        let token = registered.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(registered.status == 0 && token.count == 64, "\(registered)")
        return token
    }

    /// The first numbered finding's line.
    func firstFinding(_ output: String) -> String {
        output.split(separator: "\n").first.map(String.init) ?? ""
    }

    @Test("a background push at priority 10: the request is the cause")
    func backgroundAtPriorityTen() throws {
        let scratch = try Scratch()
        let payload = try scratch.write("silent.json", #"{"aps":{"content-available":1}}"#)
        let result = try doctor(
            ["--type", "background", "--priority", "10", "--topic", "com.example.app", "-t", Self.token, payload])
        #expect(result.status == 1, "\(result)")
        #expect(firstFinding(result.stdout).hasPrefix("1. cause [request] APS-BG-PRIORITY:"), "\(result.stdout)")
        #expect(result.stdout.contains("   fix: "))

        // Sent anyway (--force): the emulator's log has it, APNs's BadPriority follows the request's cause.
        let emulator = try EmulatorProcess(scratch.credentials)
        defer { _ = emulator.stop() }
        let apnsID = try send(
            emulator, scratch, #"{"aps":{"content-available":1}}"#,
            ["-t", Self.token, "--type", "background", "--priority", "10", "--force"], status: "400")
        let logged = try doctor(["--emulator", emulator.endpoint, "--apns-id", apnsID])
        #expect(logged.status == 1, "\(logged)")
        let lines = logged.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("1. cause [request] APS-BG-PRIORITY:") == true, "\(logged.stdout)")
        #expect(lines.contains { $0.hasPrefix("2. cause [answer] BadPriority: APNs refused it: 400 BadPriority.") })
    }

    @Test("a payload over the limit: the request is the cause, with APNs's reason")
    func payloadOverTheLimit() throws {
        let scratch = try Scratch()
        let body = String(repeating: "x", count: 4200)
        let payload = try scratch.write("big.json", #"{"aps":{"alert":{"body":"\#(body)"}}}"#)
        let result = try doctor(["--topic", "com.example.app", "-t", Self.token, "--json", payload])
        #expect(result.status == 1, "\(result)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        let cause = try #require(json["cause"] as? [String: Any])
        #expect(cause["id"] as? String == "PAYLOAD-TOO-LARGE" && cause["step"] as? String == "request", "\(json)")
        #expect((cause["message"] as? String)?.contains("PayloadTooLarge") == true)
    }

    @Test("a sandbox token sent to a production emulator: BadDeviceToken, the token's environment named")
    func tokenOfTheOtherEnvironment() throws {
        let scratch = try Scratch()
        let emulator = try EmulatorProcess(["--production", "--strict-tokens"] + scratch.credentials)
        defer { _ = emulator.stop() }
        let token = try register(emulator, ["--environment", "sandbox"])
        let apnsID = try send(emulator, scratch, Self.alert, ["-t", token], status: "400")

        let result = try doctor(["--emulator", emulator.endpoint, "--apns-id", apnsID])
        #expect(result.status == 1, "\(result)")
        let first = firstFinding(result.stdout)
        #expect(first.hasPrefix("1. cause [answer] BadDeviceToken:"), "\(result.stdout)")
        #expect(first.contains("issued this token for the sandbox"), "\(result.stdout)")
    }

    @Test("an unregistered token: 410, the app removed, since when")
    func unregisteredToken() throws {
        let scratch = try Scratch()
        let emulator = try EmulatorProcess(scratch.credentials)
        defer { _ = emulator.stop() }
        let token = try register(emulator)
        let unregistered = try HeraldBinary.run(["device", "unregister", "--endpoint", emulator.endpoint, token])
        try #require(unregistered.status == 0, "\(unregistered)")
        let apnsID = try send(emulator, scratch, Self.alert, ["-t", token], status: "410")

        let result = try doctor(["--emulator", emulator.endpoint, "--apns-id", apnsID])
        #expect(result.status == 1, "\(result)")
        let first = firstFinding(result.stdout)
        #expect(first.hasPrefix("1. cause [answer] Unregistered:"), "\(result.stdout)")
        #expect(first.contains("the app was removed from the device"), "\(result.stdout)")
        #expect(first.contains("since at least 20"), "\(result.stdout)")
    }

    @Test("an offline device that received only the newest of two: the first was replaced in storage")
    func offlineNewestOnly() throws {
        let scratch = try Scratch()
        let emulator = try EmulatorProcess(scratch.credentials)
        defer { _ = emulator.stop() }
        let token = try register(emulator)
        let first = try send(emulator, scratch, #"{"aps":{"alert":{"body":"first"}}}"#, ["-t", token])
        let second = try send(emulator, scratch, #"{"aps":{"alert":{"body":"second"}}}"#, ["-t", token])
        // The device comes online and gets what was kept for it: the newest only.
        let listened = try HeraldBinary.run([
            "device", "listen", "--endpoint", emulator.endpoint, token, "--count", "1",
        ])
        #expect(listened.stdout.contains("second") && !listened.stdout.contains("first"), "\(listened)")

        let result = try doctor(["--emulator", emulator.endpoint, "--apns-id", first])
        #expect(result.status == 1, "\(result)")
        let line = firstFinding(result.stdout)
        #expect(line.hasPrefix("1. cause [storage] STORE-REPLACED:"), "\(result.stdout)")
        #expect(line.contains("apns-id \(second)"), "\(result.stdout)")
        // The newest one has no cause.
        let newest = try doctor(["--emulator", emulator.endpoint, "--apns-id", second])
        #expect(newest.status == 0, "\(newest)")
    }

    static let foregroundProfile = #"""
        {"app": {"bundle-id": "com.example.app", "delegate": {"did-receive": true}},
         "script": [{"launch": {}}, {"request-authorization": ["alert", "sound"]}, {"register": {}},
                    {"wait-for-push": {}}]}
        """#

    static let extensionProfile = #"""
        {"app": {"bundle-id": "com.example.app", "service-extension": {"behaviour": "never-call"}},
         "script": [{"launch": {}}, {"request-authorization": ["alert", "badge"]}, {"register": {}},
                    {"background": {}}, {"wait-for-push": {}}]}
        """#

    static let budgetProfile = #"""
        {"app": {"bundle-id": "com.example.app", "background-modes": ["remote-notification"]},
         "script": [{"launch": {}}, {"register": {}}, {"background": {}},
                    {"push": {"push-type": "background", "payload": {"aps": {"content-available": 1}}}},
                    {"push": {"push-type": "background", "payload": {"aps": {"content-available": 1}}}},
                    {"push": {"push-type": "background", "payload": {"aps": {"content-available": 1}}}},
                    {"wait": 60}, {"wait-for-push": {}}]}
        """#

    @Test(
        "the device decides: foreground without willPresent, an extension that never calls its handler, the budget",
        arguments: [
            (
                "foreground.json", foregroundProfile, alert, [String](), "FG-NOT-IMPLEMENTED"
            ),
            (
                "extension.json", extensionProfile,
                #"{"aps":{"alert":{"title":"Payment","body":"Encrypted"},"mutable-content":1}}"#, [String](),
                "NSE-TIME-LIMIT"
            ),
            (
                "budget.json", budgetProfile, #"{"aps":{"content-available":1}}"#,
                ["--type", "background", "--priority", "5"], "BACKGROUND-BUDGET"
            ),
        ])
    func deviceCauses(name: String, profile: String, payload: String, flags: [String], cause: String) throws {
        let scratch = try Scratch()
        let emulator = try EmulatorProcess(scratch.credentials)
        defer { _ = emulator.stop() }
        let apnsID = try send(emulator, scratch, payload, ["-t", Self.token] + flags)
        let result = try doctor(
            ["--emulator", emulator.endpoint, "--apns-id", apnsID, "--profile", try scratch.write(name, profile)])
        #expect(result.status == 1, "\(result)")
        #expect(firstFinding(result.stdout).hasPrefix("1. cause [device] \(cause):"), "\(result.stdout)")
        #expect(result.stdout.contains("note [answer] ACCEPTED: APNs accepted it (200)"), "\(result.stdout)")
    }

    @Test("an emulator with a control token: the doctor sends it, and without it the 401 is the error")
    func controlToken() throws {
        let scratch = try Scratch()
        let emulator = try EmulatorProcess(["--control-token", "s3cret"] + scratch.credentials)
        defer { _ = emulator.stop() }
        let apnsID = try send(emulator, scratch, Self.alert, ["-t", Self.token])
        let refused = try doctor(["--emulator", emulator.endpoint, "--apns-id", apnsID])
        #expect(refused.status == 2 && refused.stderr.contains("401"), "\(refused)")
        let answered = try doctor(["--emulator", emulator.endpoint, "--apns-id", apnsID, "--control-token", "s3cret"])
        #expect(answered.status == 0 && answered.stdout.contains("ACCEPTED"), "\(answered)")
    }

    @Test("usage and lookup errors exit 2, naming what is wrong")
    func errors() throws {
        let missing = try doctor([])
        #expect(missing.status == 2 && missing.stderr.contains("FILE, --apns-id with --emulator"), "\(missing)")
        let scratch = try Scratch()
        let emulator = try EmulatorProcess(scratch.credentials)
        defer { _ = emulator.stop() }
        let unknown = try doctor(["--emulator", emulator.endpoint, "--apns-id", "8E3C2C51-0AF6-4B8B-9F7A-2C2E3B1D4F50"])
        #expect(unknown.status == 2 && unknown.stderr.contains("no entry with apns-id"), "\(unknown)")
    }
}
