import APNs
import APNsClient
import Emulator
import HTTP2
import Keys
import Synchronization

/// Where the client's behaviour tests run: a scripted fake transport, or Herald's emulator over real
/// loopback HTTP/2 with the same script played as injected faults. Each test runs against both.
enum BackendKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case scripted
    case emulator

    var description: String { rawValue }
}

/// One scripted answer.
enum ScriptedAnswer: Sendable {
    /// A rejection with this status and reason (410s carry `Backend.timestamp`).
    case reject(Int, Reason)
    /// The request never reached APNs (scripted: a refused stream; emulator: GOAWAY below it).
    case lostBeforeProcessing
    /// The connection died after the request was written (scripted: a reset; emulator: a dropped connection).
    case lostAfterSending
}

/// A client's world for one test: the transport, what the server saw, how to clean up.
final class ClientBackend: Sendable {
    /// The 410 timestamp both backends answer with (the emulator's clock, in milliseconds).
    static let timestamp = 1_767_225_600_000

    let kind: BackendKind
    let transport: any APNsTransport
    let endpoint: APNsEndpoint
    let key: P256PrivateKey
    private let scripted: ScriptedTransport?
    private let emulator: Emulator?
    private let loops: EventLoopGroup?

    private init(
        kind: BackendKind, transport: any APNsTransport, endpoint: APNsEndpoint, key: P256PrivateKey,
        scripted: ScriptedTransport?, emulator: Emulator?, loops: EventLoopGroup?
    ) {
        self.kind = kind
        self.transport = transport
        self.endpoint = endpoint
        self.key = key
        self.scripted = scripted
        self.emulator = emulator
        self.loops = loops
    }

    /// `clock` (UNIX seconds) is the emulator's, so provider tokens signed under a test clock verify.
    static func make(
        _ kind: BackendKind, script: [ScriptedAnswer] = [], clock: @escaping @Sendable () -> Int = { 1_767_225_600 }
    ) async throws -> ClientBackend {
        let key = try P256PrivateKey.generate()
        switch kind {
        case .scripted:
            let transport = ScriptedTransport(script.map { answer in
                switch answer {
                case .reject(let status, let reason):
                    let body = status == 410
                        ? #"{"reason":"\#(reason.rawValue)","timestamp":\#(timestamp)}"# : #"{"reason":"\#(reason.rawValue)"}"#
                    return .success(RawResponse(status: status, body: Array(body.utf8)))
                case .lostBeforeProcessing:
                    return .failure(.transport(TransportFailure(mayHaveReachedAPNs: false, message: "refused stream")))
                case .lostAfterSending:
                    return .failure(.transport(TransportFailure(mayHaveReachedAPNs: true, message: "connection reset")))
                }
            })
            return ClientBackend(
                kind: kind, transport: transport, endpoint: .sandbox, key: key, scripted: transport, emulator: nil, loops: nil)
        case .emulator:
            let loops = try EventLoopGroup(loopCount: 1, name: "client-backend")
            let emulator = try await Emulator.start(
                EmulatorConfiguration(keys: [.init(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", publicKey: key.publicKey)]),
                loops: loops, clock: clock)
            for answer in script {
                switch answer {
                case .reject(let status, let reason): emulator.faults.add(Fault(action: .respond(status: status, reason: reason)))
                case .lostBeforeProcessing: emulator.faults.add(Fault(action: .goAway(reason: .shutdown)))
                case .lostAfterSending: emulator.faults.add(Fault(action: .disconnect))
                }
            }
            let endpoint = try APNsEndpoint(url: "http://127.0.0.1:\(emulator.port)")
            let transport = try HTTP2Transport(configuration: TransportConfiguration(endpoint: endpoint))
            return ClientBackend(
                kind: kind, transport: transport, endpoint: endpoint, key: key, scripted: nil, emulator: emulator, loops: loops)
        }
    }

    /// Credentials the backend accepts: none needed by the fake; a provider token of the emulator's key.
    func credentials(clock: @escaping @Sendable () -> Int = { 1_767_225_600 }) throws -> APNsClient.Credentials {
        switch kind {
        case .scripted: .certificate
        case .emulator: .token(try ProviderTokenCache(signer: try signer(), clock: clock))
        }
    }

    func signer() throws -> ProviderTokenSigner {
        try ProviderTokenSigner(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
    }

    /// The apns-id of every request the server saw, in order (faults included).
    var apnsIDs: [String] {
        if let scripted { return scripted.requests.map(\.apnsID) }
        return emulator?.log.entries().compactMap(\.apnsID) ?? []
    }

    /// Requests the server saw.
    var requestCount: Int {
        if let scripted { return scripted.requests.count }
        return emulator?.log.totalCount ?? 0
    }

    /// The `authorization` header of each request (the fake records them; the emulator does not).
    var authorizations: [String]? { scripted?.requests.compactMap { $0.header("authorization") } }

    func shutdown() async {
        await transport.shutdown()
        await emulator?.shutdown()
        await loops?.shutdown()
    }
}
