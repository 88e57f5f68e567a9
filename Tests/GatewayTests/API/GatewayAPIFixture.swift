import APNs
import Foundation
import Gateway
import HTTP2
import HeraldTestSupport
import Testing

/// Which protocol curl speaks to the gateway.
enum WireProtocol: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case http1, http2

    var testDescription: String { rawValue }
    var curlFlags: [String] { self == .http1 ? ["--http1.1"] : ["--http2-prior-knowledge"] }
    var curlVersion: String { self == .http1 ? "1.1" : "2" }
}

/// A gateway on loopback over a fresh store, with a key of each kind.
struct GatewayAPIFixture {
    static let app = "com.example.app"
    /// Configured for sandbox only.
    static let sandboxApp = "com.example.sandbox"
    /// Above the largest payload APNs takes (5120 bytes), so a payload over its push type's limit
    /// reaches the linter.
    static let bodyLimit = 6144

    let storeFixture: GatewayStoreFixture
    let loops: EventLoopGroup
    let server: GatewayServer
    let admin: String
    let send: String
    /// A register key for ``app`` only.
    let register: String
    /// A send key for ``sandboxApp`` only.
    let otherAppSend: String

    /// The fixture's store, or the one passed to ``with(_:store:_:)``.
    let store: any GatewayStore

    static func with(
        _ kind: StoreKind, store custom: (any GatewayStore)? = nil, apns: APNsConnections = APNsConnections([:]),
        configure: (inout GatewayConfiguration) -> Void = { _ in }, _ body: (GatewayAPIFixture) async throws -> Void
    ) async throws {
        let storeFixture = try GatewayStoreFixture(kind)
        defer { storeFixture.remove() }
        let store = custom ?? storeFixture.store
        let apps = [
            try App(bundleID: app, environments: [.sandbox, .production]),
            try App(bundleID: sandboxApp, environments: [.sandbox]),
        ]
        let loops = try EventLoopGroup(loopCount: 1, name: "gateway-test")
        var configuration = GatewayConfiguration(apps: apps, bodyLimit: bodyLimit)
        configure(&configuration)
        let server = try await GatewayServer.start(configuration: configuration, store: store, loops: loops, apns: apns)
        let fixture = GatewayAPIFixture(
            storeFixture: storeFixture, loops: loops, server: server,
            admin: try await store.createAPIKey(name: "admin", scope: .admin, bundleID: nil, now: Clock.start).secret,
            send: try await store.createAPIKey(name: "send", scope: .send, bundleID: nil, now: Clock.start).secret,
            register: try await store.createAPIKey(name: "app", scope: .register, bundleID: app, now: Clock.start)
                .secret,
            otherAppSend: try await store.createAPIKey(name: "o", scope: .send, bundleID: sandboxApp, now: Clock.start)
                .secret, store: store)
        do {
            try await body(fixture)
        } catch {
            await server.shutdown()
            await loops.shutdown()
            throw error
        }
        await server.shutdown()
        await loops.shutdown()
    }

    /// One request through curl.
    func request(
        _ method: String, _ path: String, key: String?, body: String? = nil, headers: [String] = [],
        over wire: WireProtocol
    ) async throws -> CurlAnswer {
        let directory = storeFixture.directory
        let id = UUID().uuidString
        let bodyFile = directory + "/body-\(id)"
        let headerFile = directory + "/headers-\(id)"
        var arguments = [
            "-sS", "--max-time", "20", "--path-as-is", "-X", method, "-o", bodyFile, "-D", headerFile, "-w",
            "%{http_code} %{http_version}", "-H", "Expect:",
        ]
        arguments += wire.curlFlags
        if let key { arguments += ["-H", "authorization: Bearer \(key)"] }
        for header in headers { arguments += ["-H", header] }
        if let body { arguments += ["-H", "content-type: application/json", "--data-binary", body] }
        arguments.append("http://127.0.0.1:\(server.port)\(path)")
        let run = try await runTool("/usr/bin/curl", arguments)
        let parts = run.output.split(separator: " ")
        let bytes = (try? Data(contentsOf: URL(fileURLWithPath: bodyFile))) ?? Data()
        let headerText = (try? String(contentsOf: URL(fileURLWithPath: headerFile), encoding: .utf8)) ?? ""
        var headers: [String: String] = [:]
        for line in headerText.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return CurlAnswer(
            curlStatus: run.status, status: parts.first.flatMap { Int($0) } ?? 0,
            version: parts.count > 1 ? String(parts[1]) : "", headers: headers,
            json: bytes.isEmpty ? nil : try? JSONValue(parsing: Array(bytes)), bodySize: bytes.count,
            output: run.output)
    }
}

struct CurlAnswer {
    let curlStatus: Int32
    let status: Int
    let version: String
    let headers: [String: String]
    let json: JSONValue?
    let bodySize: Int
    let output: String

    var errorCode: String? { json?["error"]?["code"]?.stringValue }
    var errorField: String? { json?["error"]?["field"]?.stringValue }
}

struct ToolRun {
    let status: Int32
    let output: String
}

/// Runs a program to its end; its standard output and error, together.
func runTool(_ executable: String, _ arguments: [String]) async throws -> ToolRun {
    let outputURL = FileManager.default.temporaryDirectory.appendingPathComponent("herald-tool-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: outputURL) }
    let status = try await ChildProcess(executable, arguments, stdout: .file(outputURL.path), stderr: .standardOutput)
        .waitForExit()
    return ToolRun(status: status, output: try String(contentsOf: outputURL, encoding: .utf8))
}
