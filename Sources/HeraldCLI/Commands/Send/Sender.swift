import APNs
import APNsClient
import Keys

/// Builds the client `herald send` uses and sends notifications with bounded concurrency,
/// printing each result as it comes and a summary at the end.
struct Sender {
    let options: SendOptions
    let context: CommandContext

    static func endpoint(for options: SendOptions) throws(APNsClientError) -> APNsEndpoint {
        var endpoint: APNsEndpoint =
            switch options.destination {
            case .sandbox: .sandbox
            case .production: .production
            case .endpoint(let url): try APNsEndpoint(url: url)
            }
        if options.alternativePort { endpoint = endpoint.onAlternativePort() }
        return endpoint
    }

    /// The client for these options; errors are worded for the user.
    /// `loopCount`: event loops for the transport (nil: its default).
    func makeClient(defaultConnections: Int, loopCount: Int? = nil) throws(APNsClientError) -> APNsClient {
        try Self.makeClient(
            credentials: options.credentials, endpoint: try Self.endpoint(for: options), caFile: options.caFile,
            proxy: options.proxy, connections: options.connections ?? defaultConnections, retries: options.retries ?? 2,
            timeoutSeconds: options.timeoutSeconds, loopCount: loopCount, context: context)
    }

    /// A client with these credentials over a transport to `endpoint` (shared by `herald send`,
    /// its `--channel` broadcasts and `herald channels`).
    static func makeClient(
        credentials choice: SendOptions.Credentials, endpoint: APNsEndpoint, caFile: String?, proxy: String?,
        connections: Int, retries: Int, timeoutSeconds: Double?, loopCount: Int? = nil, context: CommandContext
    ) throws(APNsClientError) -> APNsClient {
        let credentials: APNsClient.Credentials
        var identity: TransportConfiguration.ClientIdentity?
        switch choice {
        case .token(let path, let keyID, let teamID):
            let key: P256PrivateKey
            do {
                key = try P256PrivateKey(pem: String(decoding: try context.read(path), as: UTF8.self))
            } catch let error as KeysError {
                throw .invalidConfiguration("--auth-key '\(path)': \(error)")
            } catch {
                throw .invalidConfiguration("--auth-key: \(error)")
            }
            do {
                let signer = try ProviderTokenSigner(key: key, keyID: keyID, teamID: teamID)
                credentials = .token(try ProviderTokenCache(signer: signer, clock: context.now))
            } catch {
                throw .providerToken(error)
            }
        case .certificate(let path, let keyPath, let password):
            credentials = .certificate
            identity = keyPath.map { .pem(certificatePath: path, keyPath: $0, password: password) }
                ?? .pkcs12(path: path, password: password)
        case .none:
            // Only a dry run parses without credentials, and a dry run sends nothing.
            credentials = .certificate
        }
        let trusted: String?
        do {
            trusted = try TrustedCA.path(
                given: caFile, host: endpoint.host, usesTLS: endpoint.usesTLS, context: context)
        } catch {
            throw .invalidConfiguration(error.message)
        }
        let proxy = proxy ?? context.environment["HTTPS_PROXY"] ?? context.environment["https_proxy"]
        var configuration = TransportConfiguration(
            endpoint: endpoint, caFile: trusted, clientIdentity: identity, proxy: proxy, maximumConnections: connections)
        configuration.loopCount = loopCount
        let transport = try context.makeTransport(configuration)
        return APNsClient(
            endpoint: endpoint, credentials: credentials, transport: transport,
            retryPolicy: RetryPolicy(maximumAttempts: retries + 1),
            requestTimeout: .milliseconds(Int64((timeoutSeconds ?? 30) * 1000)))
    }

    /// Where broadcasts (`management` false) or channel management go for `destination`: Apple's
    /// hosts for them, or the one `--endpoint` that serves everything.
    static func broadcastEndpoint(
        for destination: SendOptions.Destination, management: Bool
    ) throws(APNsClientError) -> APNsEndpoint {
        let endpoints: BroadcastEndpoints =
            switch destination {
            case .sandbox: .sandbox
            case .production: .production
            case .endpoint(let url): BroadcastEndpoints.matching(try APNsEndpoint(url: url))
            }
        return management ? endpoints.management : endpoints.broadcast
    }

    func send(_ notifications: [Notification]) async -> Int32 {
        let client: APNsClient
        do {
            client = try makeClient(defaultConnections: 1)
        } catch {
            context.standardError("herald send: \(error)\n")
            return ExitStatus.failure
        }
        let printer = ResultPrinter(options: options, context: context)
        await client.sendAll(notifications, concurrency: options.concurrency ?? 1000) { notification, result in
            printer.print(notification, result)
        }
        let metrics = client.metrics
        await client.shutdown()
        printer.summary(metrics, elapsedSeconds: nil)
        return metrics.failed == 0 ? ExitStatus.success : ExitStatus.failure
    }
}
