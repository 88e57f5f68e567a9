import APNs
import APNsClient

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
    /// its `--channel` broadcasts and `herald channels`; built by the library's `APNsClientSettings`,
    /// as `herald gateway`'s clients are).
    static func makeClient(
        credentials choice: SendOptions.Credentials, endpoint: APNsEndpoint, caFile: String?, proxy: String?,
        connections: Int, retries: Int, timeoutSeconds: Double?, loopCount: Int? = nil, context: CommandContext
    ) throws(APNsClientError) -> APNsClient {
        let trusted: String?
        do {
            trusted = try TrustedCA.path(
                given: caFile, host: endpoint.host, usesTLS: endpoint.usesTLS, context: context)
        } catch {
            throw .invalidConfiguration(error.message)
        }
        let settings = APNsClientSettings(
            credentials: choice.settings, endpoint: endpoint, caFile: trusted,
            proxy: proxy ?? context.environment["HTTPS_PROXY"] ?? context.environment["https_proxy"],
            connections: connections, retries: retries,
            requestTimeout: .milliseconds(Int64((timeoutSeconds ?? 30) * 1000)), loopCount: loopCount)
        return try settings.makeClient(
            readFile: { path in try context.read(path) }, clock: context.now, makeTransport: context.makeTransport)
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

extension SendOptions.Credentials {
    /// The library's spelling; nil for none (a dry run sends nothing).
    var settings: APNsClientSettings.Credentials? {
        switch self {
        case .token(let path, let keyID, let teamID): .token(authKeyPath: path, keyID: keyID, teamID: teamID)
        case .certificate(let path, let keyPath, let password):
            .certificate(path: path, keyPath: keyPath, password: password)
        case .none: nil
        }
    }
}
