import APNs
import Emulator
import Foundation
import HTTP2
import HeraldTestSupport
import Testing

/// The emulator's console listener (`EmulatorConsole`), through curl over HTTP/1.1 as a browser
/// speaks to it: the page and its files, the control API with the control token checked as on the
/// APNs listener, and the APNs listener left as it was (no console there, no HTTP/1.1, one stream
/// until a provider token).
@Suite(.timeLimit(.minutes(1)))
struct EmulatorConsoleTests {
    struct Answer {
        let status: Int
        let headers: [String: String]
        let body: String
    }

    /// One request with curl (`--http1.1`, or `--http2-prior-knowledge`); status 0 when curl failed.
    static func curl(_ url: String, _ extra: [String] = []) async throws -> Answer {
        let directory = FileManager.default.temporaryDirectory.path
        let id = UUID().uuidString
        let bodyFile = directory + "/console-body-\(id)"
        let headerFile = directory + "/console-headers-\(id)"
        defer {
            try? FileManager.default.removeItem(atPath: bodyFile)
            try? FileManager.default.removeItem(atPath: headerFile)
        }
        let arguments =
            ["-sS", "--max-time", "10", "-o", bodyFile, "-D", headerFile, "-w", "%{http_code}"] + extra + [url]
        let process = try ChildProcess("/usr/bin/curl", arguments)
        _ = await process.waitForExit()
        let status = Int(String(decoding: await process.capturedOutput(), as: UTF8.self)) ?? 0
        var headers: [String: String] = [:]
        let headerText = (try? String(contentsOfFile: headerFile, encoding: .utf8)) ?? ""
        for line in headerText.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return Answer(
            status: status, headers: headers, body: (try? String(contentsOfFile: bodyFile, encoding: .utf8)) ?? "")
    }

    static func withConsole(controlToken: String? = nil, _ body: (Emulator, String) async throws -> Void) async throws {
        try await withBoundedEmulator({ $0.controlToken = controlToken }) { bounded in
            let console = try await EmulatorConsole.start(
                for: bounded.emulator, loops: bounded.emulator.server.configuration.loops)
            do {
                try await body(bounded.emulator, "http://127.0.0.1:\(console.port)")
            } catch {
                await console.shutdown()
                throw error
            }
            await console.shutdown()
        }
    }

    @Test func thePageAndItsFilesAreServedOverHTTP1() async throws {
        try await Self.withConsole { _, base in
            for (path, type) in [
                ("/console", "text/html; charset=utf-8"),
                ("/console/assets/emulator.js", "text/javascript; charset=utf-8"),
                ("/console/assets/common.js", "text/javascript; charset=utf-8"),
                ("/console/assets/console.css", "text/css; charset=utf-8"), ("/favicon.ico", "image/svg+xml"),
                ("/console/assets/reasons.json", "application/json"),
            ] {
                let answer = try await Self.curl(base + path, ["--http1.1"])
                #expect(answer.status == 200 && !answer.body.isEmpty, "\(path)")
                #expect(answer.headers["content-type"] == type, "\(path)")
                #expect(answer.headers["cache-control"] == "no-cache" && answer.headers["etag"] != nil, "\(path)")
            }
            let page = try await Self.curl(base + "/console", ["--http1.1"])
            #expect(page.body.contains(#"src="/console/assets/emulator.js""#))
            let root = try await Self.curl(base + "/", ["--http1.1"])
            #expect(root.status == 302 && root.headers["location"] == "/console")
            let missing = try await Self.curl(base + "/console/assets/nothing.js", ["--http1.1"])
            #expect(missing.status == 404 && missing.body.contains("BadPath"))
            // The console listener is no APNs: a push there is a 404, not an answer from the emulator.
            let push = try await Self.curl(
                base + "/3/device/" + String(repeating: "ab", count: 32), ["--http1.1", "-X", "POST"])
            #expect(push.status == 404)
        }
    }

    @Test func theControlAPIAnswersThereWithTheControlTokenChecked() async throws {
        try await Self.withConsole(controlToken: "s3cret-Token") { emulator, base in
            let refused = try await Self.curl(base + "/control/v1/stats", ["--http1.1"])
            #expect(refused.status == 401 && refused.headers["www-authenticate"] == "Bearer")
            let wrong = try await Self.curl(
                base + "/control/v1/stats", ["--http1.1", "-H", "authorization: Bearer nope"])
            #expect(wrong.status == 401)
            let allowed = try await Self.curl(
                base + "/control/v1/faults",
                [
                    "--http1.1", "-H", "authorization: Bearer s3cret-Token", "-X", "POST",
                    "--data-binary", #"{"status":503}"#,
                ])
            #expect(allowed.status == 201, "\(allowed.body)")
            #expect(emulator.faults.count == 1)
            // The page itself needs no token: it holds no secret, and asks for the token to sign in.
            let page = try await Self.curl(base + "/console", ["--http1.1"])
            #expect(page.status == 200)
        }
    }

    @Test func theAPNsListenerKeepsItsRules() async throws {
        try await Self.withConsole { emulator, _ in
            let apns = "http://127.0.0.1:\(emulator.port)"
            // No HTTP/1.1 on the APNs listener, as on APNs.
            let http1 = try await Self.curl(apns + "/console", ["--http1.1"])
            #expect(http1.status != 200)
            // No console there either.
            let h2 = try await Self.curl(apns + "/console", ["--http2-prior-knowledge"])
            #expect([404, 405].contains(h2.status) && !h2.body.contains("<html"), "\(h2.status) \(h2.body)")
        }
    }
}
