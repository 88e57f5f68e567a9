// herald-bench: sends N identical notifications through APNsClient's public async API, from
// `streams x connections` concurrent tasks running on the transport's event loops, and prints
// the rate. Used by scripts/bench-client against nghttpd, beside h2load.
//
//   herald-bench --endpoint URL [--ca-file PEM] --token HEX --requests N --connections C --streams S
//                [--payload FILE] [--loops L]   (L event loop threads, default 1, as h2load's -t 1)
//                [--auth-key P8 --key-id ID --team-id ID]   (token auth: every request carries the
//                provider token, as APNs requires and h2load's `authorization` header sends;
//                without them, certificate credentials and no `authorization` header)

import APNs
import APNsClient
import Foundation
import HTTP2
import Keys

func argument(_ name: String, _ fallback: String? = nil) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: "--" + name), index + 1 < arguments.count else { return fallback }
    return arguments[index + 1]
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("herald-bench: \(message)\n".utf8))
    exit(2)
}

guard let url = argument("endpoint"), let token = argument("token") else {
    fail(
        "usage: herald-bench --endpoint URL --token HEX [--ca-file PEM] [--requests N] [--connections C] [--streams S] [--payload FILE]"
    )
}
let requests = Int(argument("requests", "100000") ?? "") ?? 100_000
let connections = Int(argument("connections", "1") ?? "") ?? 1
let streams = Int(argument("streams", "100") ?? "") ?? 100
/// Event loop threads: 1 by default, like h2load's default (`-t 1`) that it is compared with.
let loops = max(1, Int(argument("loops", "1") ?? "") ?? 1)
let payloadBytes: [UInt8]
if let path = argument("payload") {
    guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
    payloadBytes = Array(data)
} else {
    payloadBytes = Array(
        #"{"aps":{"alert":{"title":"Order shipped","body":"Your order A-1042 is on its way."},"sound":"default"}}"#.utf8
    )
}

let endpoint: APNsEndpoint
let notification: APNs.Notification
let credentials: APNsClient.Credentials
do {
    if let keyPath = argument("auth-key") {
        guard let keyID = argument("key-id"), let teamID = argument("team-id") else {
            fail("--auth-key needs --key-id and --team-id")
        }
        guard let pem = FileManager.default.contents(atPath: keyPath) else { fail("cannot read \(keyPath)") }
        let signer = try ProviderTokenSigner(
            key: try P256PrivateKey(pem: String(decoding: pem, as: UTF8.self)), keyID: keyID, teamID: teamID)
        credentials = .token(try ProviderTokenCache(signer: signer))
    } else {
        credentials = .certificate
    }
    endpoint = try APNsEndpoint(url: url)
    notification = APNs.Notification(
        token: try DeviceToken(hex: token), topic: try Topic("com.example.app"), pushType: .alert, priority: .immediate,
        apnsID: try APNsID("123e4567-e89b-12d3-a456-426655440000"), payload: EncodedPayload(bytes: payloadBytes))
} catch {
    fail("\(error)")
}

/// The benchmark proper. The main thread blocks on a semaphore instead of running an async top level
/// (`dispatch_main`, whose `sigsuspend` valgrind 3.19 cannot run), so callgrind can count it.
func run() async throws {
    let group = try EventLoopGroup(loopCount: min(connections, loops), name: "bench")
    let transport = try HTTP2Transport(
        configuration: TransportConfiguration(
            endpoint: endpoint, caFile: argument("ca-file"), maximumConnections: connections,
            maximumQueuedRequests: connections * streams * 2),
        loops: group)
    let client = APNsClient(endpoint: endpoint, credentials: credentials, transport: transport, retryPolicy: .none)

    // Warm up: open every connection.
    await withTaskGroup(of: Void.self) { tasks in
        for index in 0..<(connections * streams) {
            tasks.addTask(executorPreference: group.loops[index % group.loops.count]) {
                _ = await client.result(for: notification)
            }
        }
    }

    let workers = connections * streams
    let perWorker = requests / workers
    let started = ContinuousClock.now
    let failures = await withTaskGroup(of: Int.self) { tasks in
        for index in 0..<workers {
            tasks.addTask(executorPreference: group.loops[index % group.loops.count]) {
                var failed = 0
                for _ in 0..<perWorker {
                    if case .failure = await client.result(for: notification) { failed += 1 }
                }
                return failed
            }
        }
        var sum = 0
        for await failed in tasks { sum += failed }
        return sum
    }
    let elapsed = ContinuousClock.now - started
    let seconds = elapsed.secondsAsDouble
    let total = perWorker * workers
    print(
        "\(total) notifications in \(String(format: "%.3f", seconds)) s: \(String(format: "%.0f", Double(total) / seconds)) notifications/s, \(failures) failed"
    )
    await client.shutdown()
    await group.shutdown()
}

let finished = DispatchSemaphore(value: 0)
Task.detached {
    do {
        try await run()
    } catch {
        FileHandle.standardError.write(Data("herald-bench: \(error)\n".utf8))
        exit(1)
    }
    finished.signal()
}
finished.wait()
