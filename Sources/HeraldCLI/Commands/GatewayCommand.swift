import APNs
import APNsClient
import Gateway
import HTTP2

/// `herald gateway`: starts a `GatewayRuntime` (store, APNs clients, API) and serves until SIGINT
/// or SIGTERM; `herald gateway key ...` is `GatewayKeyCommand`.
struct GatewayCommand {
    let options: GatewayOptions
    let context: CommandContext

    func run() async -> Int32 {
        guard case .serve(let serve) = options.action else {
            if case .importDevices(let request) = options.action {
                return await GatewayDevicesCommand(
                    dataDirectory: options.dataDirectory, database: options.database, request: request,
                    context: context
                ).run()
            }
            return await GatewayKeyCommand(options: options, context: context).run()
        }
        let apps: [GatewayAppSettings]
        let tls: TLSContext?
        do {
            apps = try appSettings(serve)
            tls = try serve.tlsCertificate.flatMap { certificate in
                try serve.tlsKey.map { key throws(GatewaySetupError) in
                    try GatewayTLS.serverContext(certificatePath: certificate, keyPath: key)
                }
            }
        } catch {
            context.standardError("herald gateway: \(error)\n")
            return ExitStatus.failure
        }
        // Listen for SIGINT/SIGTERM from before the address is printed: a supervisor (or a test) that
        // stops the gateway as soon as it reads the address must get a clean stop, not a killed process.
        context.listenForTermination()
        let terminated = Task { await context.waitForTermination() }
        let directory = options.dataDirectory.map { GatewayDataDirectory(path: $0) }
        let defaults = DeliveryEngineConfiguration()
        let delivery = DeliveryEngineConfiguration(
            claimBatchSize: serve.claimBatch ?? defaults.claimBatchSize,
            leaseMilliseconds: serve.leaseSeconds.map { $0 * 1_000 } ?? defaults.leaseMilliseconds,
            sendConcurrency: serve.sendConcurrency ?? defaults.sendConcurrency)
        HeapTuning.keepFreedMemory()
        let runtime: GatewayRuntime
        do {
            runtime = try await GatewayRuntime.start(
                GatewayRuntime.Options(
                    dataDirectory: directory, database: options.database, apps: apps, host: serve.host,
                    port: serve.port, tls: tls,
                    clock: context.nowMilliseconds, delivery: delivery))
        } catch {
            context.standardError("herald gateway: \(Self.explain(error))\n")
            return ExitStatus.failure
        }
        if let key = runtime.firstAdminKey, let directory {
            context.standardError(
                "herald gateway: created the admin API key \(key.id); its secret is in \(directory.adminKeyPath) "
                    + "(mode 0600): use it as 'authorization: Bearer KEY', and keep it secret\n")
        } else if directory == nil, (try? await runtime.store.apiKeys().isEmpty) ?? false {
            context.standardError(
                "herald gateway: the database has no API key yet; make an admin key with "
                    + "'herald gateway key create --database URL --scope admin'\n")
        }
        let scheme = tls == nil ? "http" : "https"
        let host = serve.host.contains(":") ? "[\(serve.host)]" : serve.host
        let served = apps.map { app in
            "\(app.bundleID) (\(app.environments.keys.map(\.rawValue).sorted().joined(separator: ", ")))"
        }
        context.standardOutput(
            "herald gateway: listening on \(scheme)://\(host):\(runtime.port) (HTTP/1.1 and HTTP/2)\n"
                + "  apps: \(served.joined(separator: "; "))\n"
                + "  state in \(options.database.map { "PostgreSQL \($0.redacted)" } ?? directory?.storePath ?? "?"); "
                + "instance \(delivery.claimer); stop with Ctrl-C\n")
        context.onListening(Int(runtime.port))
        await terminated.value
        await runtime.shutdown()
        context.standardOutput("herald gateway: stopped\n")
        return ExitStatus.success
    }

    /// Start failures worded with the flag or file at fault.
    static func explain(_ error: GatewayStartError) -> String {
        switch error {
        case .listen(let host, let port, let reason): "--listen \(host):\(port): cannot listen: \(reason)"
        case .setup(let error): "--data-dir: \(error.message)"
        case .database(let error): "--database: \(error.message)"
        case .client(let key, let error): "\(key): \(TrustedCA.explaining("\(error)"))"
        case .configuration(let error): "\(error)"
        }
    }

    /// The apps of the flags (--topic) and of --config; an app given in both is refused.
    func appSettings(_ serve: GatewayOptions.Serve) throws(InputError) -> [GatewayAppSettings] {
        var apps: [GatewayAppSettings] = []
        if let path = serve.configPath {
            let bytes: [UInt8]
            do {
                bytes = try context.read(path)
            } catch {
                throw InputError("--config: \(error)")
            }
            do {
                apps = try GatewayConfigFile(bytes: bytes, path: path).apps
            } catch {
                throw InputError("--config '\(path)': \(error)")
            }
        }
        guard let topic = serve.topic else { return apps }
        if let index = apps.firstIndex(where: { $0.bundleID == topic }) {
            throw InputError(
                "--topic \(topic) is also configured in --config (apps[\(index)]); configure each app in one place")
        }
        var endpoint: APNsEndpoint
        let environment: Gateway.Environment
        switch serve.destination {
        case .sandbox: (endpoint, environment) = (.sandbox, .sandbox)
        case .production: (endpoint, environment) = (.production, .production)
        case .endpoint(let url):
            do {
                endpoint = try APNsEndpoint(url: url)
            } catch {
                throw InputError("--endpoint: \(error)")
            }
            environment = .sandbox
        }
        if serve.alternativePort { endpoint = endpoint.onAlternativePort() }
        let caFile = try TrustedCA.path(
            given: serve.caFile, host: endpoint.host, usesTLS: endpoint.usesTLS, context: context)
        let settings = APNsClientSettings(
            credentials: serve.credentials.settings, endpoint: endpoint, caFile: caFile,
            proxy: serve.proxy ?? context.environment["HTTPS_PROXY"] ?? context.environment["https_proxy"],
            connections: GatewayAppSettings.defaultConnections)
        return [GatewayAppSettings(bundleID: topic, environments: [environment: settings])] + apps
    }
}
