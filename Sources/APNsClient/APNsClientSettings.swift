// What it takes to build an `APNsClient` from files a person names: the credentials (a .p8 key or a
// certificate), where to send and how. `herald send`, `herald channels` and `herald gateway` (its
// flags and its config file) all build their clients here, so a key file is read, checked and
// reported the same way everywhere; errors name the input the way the caller spells it
// (`--auth-key` on a command line, `apps[1].auth-key` in a config file).
import APNs
import HTTP2
import Keys

/// The settings of one ``APNsClient``: credentials by file, endpoint, transport limits.
///
/// Thread-safety: a value type; `Sendable`.
public struct APNsClientSettings: Sendable {
    /// How the client authenticates, by the files that hold the secrets.
    public enum Credentials: Sendable, Equatable {
        /// A provider token signed with the .p8 key at `authKeyPath`.
        case token(authKeyPath: String, keyID: String, teamID: String)
        /// A TLS client certificate: a .p12 file, or a PEM certificate with its PEM key at `keyPath`.
        case certificate(path: String, keyPath: String?, password: String?)
    }

    /// What errors call the inputs.
    public struct Names: Sendable, Equatable {
        public var authKey: String
        public var caFile: String

        public init(authKey: String, caFile: String) {
            self.authKey = authKey
            self.caFile = caFile
        }

        /// The command line's spelling.
        public static let flags = Names(authKey: "--auth-key", caFile: "--ca-file")
    }

    /// nil: no credentials at all (a client that only a dry run or an unauthenticated test server uses).
    public var credentials: Credentials?
    public var endpoint: APNsEndpoint
    /// The CA (PEM) to trust instead of the system's.
    public var caFile: String?
    /// An HTTP CONNECT proxy, `http://HOST:PORT`.
    public var proxy: String?
    public var connections: Int
    /// Resends of a retryable failure within one send.
    public var retries: Int
    /// The whole in-send retry policy, when the caller needs more than `retries` (its delays): the
    /// gateway keeps in-send waits short and leaves long ones to its durable queue. nil: `retries`
    /// with the client's default delays.
    public var retryPolicy: RetryPolicy?
    public var requestTimeout: Duration
    /// Event loops for the transport (nil: its default).
    public var loopCount: Int?
    public var names: Names

    public init(
        credentials: Credentials?, endpoint: APNsEndpoint, caFile: String? = nil, proxy: String? = nil,
        connections: Int = 1, retries: Int = 2, requestTimeout: Duration = .seconds(30), loopCount: Int? = nil,
        names: Names = .flags
    ) {
        self.credentials = credentials
        self.endpoint = endpoint
        self.caFile = caFile
        self.proxy = proxy
        self.connections = connections
        self.retries = retries
        self.requestTimeout = requestTimeout
        self.loopCount = loopCount
        self.names = names
    }

    /// The transport's configuration for these settings (the client identity of certificate auth included).
    public var transportConfiguration: TransportConfiguration {
        var identity: TransportConfiguration.ClientIdentity?
        if case .certificate(let path, let keyPath, let password) = credentials {
            identity =
                keyPath.map { .pem(certificatePath: path, keyPath: $0, password: password) }
                ?? .pkcs12(path: path, password: password)
        }
        var configuration = TransportConfiguration(
            endpoint: endpoint, caFile: caFile, clientIdentity: identity, proxy: proxy, maximumConnections: connections)
        configuration.loopCount = loopCount
        return configuration
    }

    /// Reads the key (and checks the CA file), then builds the client. Throws `.invalidConfiguration`
    /// naming the input for a file that cannot be read or parsed, `.providerToken` for a key id or
    /// team id APNs would refuse, and what the transport throws (a certificate that does not load).
    /// `readFile`: how files are read (the CLI's reads `-` as standard input); `clock`: UNIX seconds
    /// for provider tokens; `makeTransport`: the transport (tests pass a fake).
    public func makeClient(
        readFile: (String) throws -> [UInt8] = { path in try APNsClientSettings.readFile(path) },
        clock: @escaping @Sendable () -> Int = ProviderTokenCache.systemClock,
        makeTransport: (TransportConfiguration) throws(APNsClientError) -> any APNsTransport = {
            (configuration: TransportConfiguration) throws(APNsClientError) in
            try HTTP2Transport(configuration: configuration)
        }
    ) throws(APNsClientError) -> APNsClient {
        let clientCredentials: APNsClient.Credentials
        switch credentials {
        case .token(let path, let keyID, let teamID):
            let key: P256PrivateKey
            do {
                key = try P256PrivateKey(pem: String(decoding: try readFile(path), as: UTF8.self))
            } catch let error as KeysError {
                throw .invalidConfiguration("\(names.authKey) '\(path)': \(error)")
            } catch {
                throw .invalidConfiguration("\(names.authKey): \(error)")
            }
            do {
                let signer = try ProviderTokenSigner(key: key, keyID: keyID, teamID: teamID)
                clientCredentials = .token(try ProviderTokenCache(signer: signer, clock: clock))
            } catch {
                throw .providerToken(error)
            }
        case .certificate, nil:
            clientCredentials = .certificate
        }
        if let caFile {
            do {
                _ = try readFile(caFile)
            } catch {
                throw .invalidConfiguration("\(names.caFile): \(error)")
            }
        }
        return APNsClient(
            endpoint: endpoint, credentials: clientCredentials, transport: try makeTransport(transportConfiguration),
            retryPolicy: retryPolicy ?? RetryPolicy(maximumAttempts: retries + 1), requestTimeout: requestTimeout)
    }

    /// Keys, certificates and CAs are kilobytes; a larger file is not one.
    static let maximumFileSize = 1 << 20

    /// Reads a whole file (a key or a CA); errors name the path and the system's reason.
    public static func readFile(_ path: String) throws(APNsClientSettingsFileError) -> [UInt8] {
        let fd: Int32
        do {
            fd = try System.openForReading(path)
        } catch {
            throw APNsClientSettingsFileError("cannot read '\(path)': \(error.message)")
        }
        defer { try? System.close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let outcome = chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemError) in try System.read(fd, into: buffer) }
            }
            guard case .success(.completed(let count)) = outcome else {
                let reason = if case .failure(let error) = outcome { error.message } else { "not a regular file" }
                throw APNsClientSettingsFileError("cannot read '\(path)': \(reason)")
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > maximumFileSize {
                throw APNsClientSettingsFileError("'\(path)' is larger than 1 MiB, too large for a key or certificate")
            }
        }
    }
}

/// A key or CA file that could not be read.
public struct APNsClientSettingsFileError: Error, Sendable, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
