import APNs
import Emulator
import HTTP2
import Keys

/// `herald emulator`: serves until SIGINT/SIGTERM, then prints how many requests it answered.
struct EmulatorCommand {
    let options: EmulatorOptions
    let context: CommandContext

    func run() async -> Int32 {
        var keys: [EmulatorConfiguration.ProviderKey]
        var bundleIDs = Set(options.topics)
        let tls: TLSContext?
        var caPath: String?
        let controlToken: String?
        do {
            keys = try loadKeys()
            if let path = options.configPath {
                let file = try loadConfig(path)
                keys += try file.keys.map(loadKey)
                if let topics = file.allTopics {
                    bundleIDs.formUnion(topics)
                } else if options.topics.isEmpty {
                    bundleIDs = []  // some team may push to any topic
                }
                let ids = keys.map(\.keyID)
                if Set(ids).count != ids.count {
                    throw EmulatorSetupError(
                        "--config '\(path)': a key id is given twice (with --key-id and in the file)")
                }
            }
            (tls, caPath) = try makeTLS()
            controlToken = try loadControlToken()
        } catch {
            context.standardError("herald emulator: \(error)\n")
            return ExitStatus.failure
        }
        // Listen for SIGINT/SIGTERM from before the address is printed: a supervisor (or a test) that
        // stops the emulator as soon as it reads the address must get a clean stop (its log flushed),
        // not a killed process.
        context.listenForTermination()
        let terminated = Task { await context.waitForTermination() }
        let store: SQLiteEmulatorStore?
        do {
            store = try openStore()
        } catch {
            context.standardError("herald emulator: \(error)\n")
            return ExitStatus.failure
        }
        let loops: EventLoopGroup
        let emulator: Emulator
        do {
            loops = try EventLoopGroup(
                loopCount: options.loops ?? EmulatorOptions.defaultLoops, name: "herald-emulator")
        } catch {
            context.standardError("herald emulator: cannot start event loops: \(error)\n")
            return ExitStatus.failure
        }
        // One configuration: a second, shadowing one used to drop --strict-tokens.
        let configuration = makeConfiguration(keys: keys, bundleIDs: bundleIDs, controlToken: controlToken)
        do {
            if let store {
                emulator = try await Emulator.start(
                    configuration, store: store, host: options.host, port: options.port, tls: tls, loops: loops,
                    clock: context.now, millisecondClock: context.nowMilliseconds)
            } else {
                emulator = try await Emulator.start(
                    configuration, host: options.host, port: options.port, tls: tls, loops: loops, clock: context.now,
                    millisecondClock: context.nowMilliseconds)
            }
        } catch let error as EmulatorStoreError {
            await loops.shutdown()
            context.standardError("herald emulator: cannot load the state in '\(store?.path ?? "")': \(error)\n")
            return ExitStatus.failure
        } catch {
            await loops.shutdown()
            context.standardError("herald emulator: cannot listen on \(options.host):\(options.port): \(error)\n")
            return ExitStatus.failure
        }
        let scheme = tls == nil ? "http" : "https"
        let host = options.host.contains(":") ? "[\(options.host)]" : options.host
        var lines = [
            "herald emulator: listening on \(scheme)://\(host):\(emulator.port) (\(options.production ? "production" : "sandbox"))"
        ]
        if let caPath { lines.append("  clients trust the CA in \(caPath) (herald send --ca-file \(caPath))") }
        if keys.isEmpty {
            lines.append("  no --auth-key: only certificate-authenticated requests can succeed")
        } else {
            let described = keys.prefix(4).map { "\($0.keyID) (team \($0.teamID))" }.joined(separator: ", ")
            lines.append(
                "  accepts provider tokens of key\(keys.count == 1 ? "" : "s") \(described)\(keys.count > 4 ? ", ..." : "")"
            )
        }
        lines.append(
            "  tokens: \(options.strictTokens ? "strict (registered devices only)" : "open (any well-formed token)")")
        if let store {
            lines.append(
                "  state in \(store.path): \(emulator.log.keptCount) deliveries (of \(emulator.log.totalCount)) restored,"
                    + " \(emulator.devices.deviceCount) simulated devices (offline until they listen);"
                    + " --in-memory keeps none")
        }
        var console: EmulatorConsole?
        if let listen = options.console {
            do {
                console = try await EmulatorConsole.start(
                    for: emulator, host: listen.host, port: listen.port, loops: loops)
            } catch {
                await emulator.shutdown()
                await loops.shutdown()
                context.standardError(
                    "herald emulator: --console \(listen.host):\(listen.port): cannot listen: \(error)\n")
                return ExitStatus.failure
            }
        }
        if let console, let listen = options.console {
            let consoleHost = listen.host.contains(":") ? "[\(listen.host)]" : listen.host
            lines.append("  console: http://\(consoleHost):\(console.port)/console (HTTP/1.1 and h2c)")
        }
        lines.append("  delivery log: GET \(scheme)://\(host):\(emulator.port)/control/v1/deliveries; stop with Ctrl-C")
        context.standardOutput(lines.joined(separator: "\n") + "\n")
        if controlToken == nil,
            !Self.isLoopback(options.host) || !(options.console.map { Self.isLoopback($0.host) } ?? true)
        {
            context.standardError(
                "herald emulator: warning: listening on \(options.host), not a loopback address, and the control API "
                    + "is unauthenticated: anyone who reaches this port can read the delivery log, inject faults, "
                    + "unregister tokens and register devices; set --control-token or --control-token-file "
                    + "(or HERALD_CONTROL_TOKEN)\n")
        }
        context.onListening(emulator.port)
        await terminated.value
        await console?.shutdown()
        await emulator.shutdown()
        await loops.shutdown()
        let answered = emulator.log.counts.total
        context.standardOutput(
            "herald emulator: stopped after answering \(answered) request\(answered == 1 ? "" : "s")\n")
        return ExitStatus.success
    }

    /// The emulator's configuration from the options (nil options: the emulator's defaults).
    func makeConfiguration(
        keys: [EmulatorConfiguration.ProviderKey], bundleIDs: Set<String>, controlToken: String?
    ) -> EmulatorConfiguration {
        var configuration = EmulatorConfiguration(
            keys: keys, bundleIDs: bundleIDs, sandbox: !options.production, perTokenRateLimit: options.rateLimit)
        configuration.strictTokens = options.strictTokens
        configuration.idleTimeout = options.idleTimeoutSeconds.map { .seconds($0) }
        if let limit = options.channelLimit { configuration.channelLimitPerApp = limit }
        if let seconds = options.firstRequestTimeoutSeconds {
            configuration.firstRequestTimeout = seconds == 0 ? nil : .seconds(seconds)
        }
        if let limit = options.maximumConnections { configuration.maximumConnections = limit }
        if let limit = options.faultLimit { configuration.faultLimit = limit }
        if let limit = options.unregisteredLimit { configuration.unregisteredTokenLimit = limit }
        configuration.controlToken = controlToken
        return configuration
    }

    /// `--control-token`, or the first line of `--control-token-file`.
    private func loadControlToken() throws(EmulatorSetupError) -> String? {
        guard let path = options.controlTokenFile else { return options.controlToken }
        let text: String
        do {
            text = String(decoding: try context.read(path), as: UTF8.self)
        } catch {
            throw EmulatorSetupError("--control-token-file: \(error)")
        }
        let token = String(text.prefix { $0 != "\n" && $0 != "\r" })
        if let rule = EmulatorOptions.controlTokenProblem(token) {
            throw EmulatorSetupError("--control-token-file '\(path)': its first line \(rule)")
        }
        return token
    }

    /// Whether `host` is reachable only from this machine.
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// The state's store, `DIR/emulator.sqlite` (the directory made if needed); nil with --in-memory.
    private func openStore() throws(EmulatorSetupError) -> SQLiteEmulatorStore? {
        if options.inMemory { return nil }
        let directory = options.dataDirectory
        do {
            try System.makeDirectory(directory)
        } catch {
            throw EmulatorSetupError("cannot create --data-dir '\(directory)': \(error.message)")
        }
        let path = directory + "/" + SQLiteEmulatorStore.fileName
        do {
            return try SQLiteEmulatorStore(path: path)
        } catch {
            throw EmulatorSetupError("cannot open the state in '\(path)': \(error) (--in-memory runs without it)")
        }
    }

    private func loadKeys() throws(EmulatorSetupError) -> [EmulatorConfiguration.ProviderKey] {
        guard let path = options.authKeyPath, let keyID = options.keyID, let teamID = options.teamID else { return [] }
        do {
            let key = try P256PrivateKey(pem: String(decoding: try context.read(path), as: UTF8.self))
            _ = try ProviderTokenSigner(key: key, keyID: keyID, teamID: teamID)  // checks the ids
            return [EmulatorConfiguration.ProviderKey(keyID: keyID, teamID: teamID, publicKey: key.publicKey)]
        } catch let error as KeysError {
            throw EmulatorSetupError("--auth-key '\(path)': \(error)")
        } catch let error as InputError {
            throw EmulatorSetupError("--auth-key: \(error)")
        } catch {
            throw EmulatorSetupError("\(error)")
        }
    }

    private func loadConfig(_ path: String) throws(EmulatorSetupError) -> EmulatorConfigFile {
        do {
            return try EmulatorConfigFile(bytes: try context.read(path), path: path)
        } catch let error as FieldError {
            throw EmulatorSetupError("--config '\(path)': \(error)")
        } catch {
            throw EmulatorSetupError("--config: \(error)")
        }
    }

    private func loadKey(_ key: EmulatorConfigFile.Key) throws(EmulatorSetupError) -> EmulatorConfiguration.ProviderKey
    {
        do {
            let pem = String(decoding: try context.read(key.path), as: UTF8.self)
            let publicKey = key.isPublicKey ? try P256PublicKey(pem: pem) : try P256PrivateKey(pem: pem).publicKey
            return EmulatorConfiguration.ProviderKey(
                keyID: key.keyID, teamID: key.teamID, publicKey: publicKey, bundleIDs: Set(key.topics),
                environment: key.environment)
        } catch let error as KeysError {
            throw EmulatorSetupError("--config: key \(key.keyID) '\(key.path)': \(error)")
        } catch {
            throw EmulatorSetupError("--config: key \(key.keyID): \(error)")
        }
    }

    /// The server's TLS: the given certificate, else one in the data directory (made on first run).
    private func makeTLS() throws(EmulatorSetupError) -> (TLSContext?, String?) {
        if options.plaintext { return (nil, nil) }
        do {
            if let certificatePath = options.tlsCertificate, let keyPath = options.tlsKey {
                let chain = try Certificate.chain(contentsOfFile: certificatePath)
                let key = try PrivateKey(contentsOfFile: keyPath)
                return (try TLSContext(serverConfiguration(chain, key)), nil)
            }
            let directory = options.dataDirectory
            let caPath = directory + "/ca.pem"
            let certificatePath = directory + "/emulator-cert.pem"
            let keyPath = directory + "/emulator-key.pem"
            if ![caPath, certificatePath, keyPath].allSatisfy(System.isReadable) {
                do {
                    try System.makeDirectory(directory)
                } catch {
                    throw EmulatorSetupError("cannot create --data-dir '\(directory)': \(error.message)")
                }
                let authority = try CertificateAuthority.generate(commonName: "Herald Emulator CA")
                let (certificate, key) = try authority.issue(
                    commonName: "localhost", subjectAlternativeNames: ["localhost", "127.0.0.1", "::1"])
                try context.writeFile(caPath, Array(try authority.certificate.pem().utf8))
                try context.writeFile(
                    certificatePath, Array((try certificate.pem() + authority.certificate.pem()).utf8))
                try context.writeFile(keyPath, Array(try key.pkcs8PEM().utf8))
                try System.changeMode(keyPath, to: 0o600)  // the key is the emulator's identity: its owner's alone
            }
            let chain = try Certificate.chain(contentsOfFile: certificatePath)
            let key = try PrivateKey(contentsOfFile: keyPath)
            return (try TLSContext(serverConfiguration(chain, key)), caPath)
        } catch let error as EmulatorSetupError {
            throw error
        } catch {
            throw EmulatorSetupError("TLS: \(error)")
        }
    }
}

extension EmulatorCommand {
    /// The server's identity; with --client-ca, client certificates are asked for (not required: token
    /// auth works on the same port) and must chain to those CAs.
    func serverConfiguration(_ chain: [Certificate], _ key: PrivateKey) -> TLSConfiguration {
        guard let clientCA = options.clientCA else { return .server(certificateChain: chain, privateKey: key) }
        var configuration = TLSConfiguration.server(
            certificateChain: chain, privateKey: key, trustRoots: .file(clientCA), verifyPeer: true)
        configuration.requireClientCertificate = false
        return configuration
    }
}

struct EmulatorSetupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
