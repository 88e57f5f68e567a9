import APNs
import Emulator
import HTTP2
import Keys

#if canImport(Glibc)
import Glibc
#endif

/// `herald emulator`: serves until SIGINT/SIGTERM, then prints how many requests it answered.
struct EmulatorCommand {
    let options: EmulatorOptions
    let context: CommandContext

    func run() async -> Int32 {
        let keys: [EmulatorConfiguration.ProviderKey]
        let tls: TLSContext?
        var caPath: String?
        do {
            keys = try loadKeys()
            (tls, caPath) = try makeTLS()
        } catch {
            context.standardError("herald emulator: \(error)\n")
            return ExitStatus.failure
        }
        let loops: EventLoopGroup
        let emulator: Emulator
        do {
            loops = try EventLoopGroup(name: "herald-emulator")
        } catch {
            context.standardError("herald emulator: cannot start event loops: \(error)\n")
            return ExitStatus.failure
        }
        var configuration = EmulatorConfiguration(
            keys: keys, bundleIDs: Set(options.topics), sandbox: !options.production, perTokenRateLimit: options.rateLimit)
        configuration.strictTokens = options.strictTokens
        do {
            emulator = try await Emulator.start(
                configuration,
                host: options.host, port: options.port, tls: tls, loops: loops, clock: context.now)
        } catch {
            await loops.shutdown()
            context.standardError("herald emulator: cannot listen on \(options.host):\(options.port): \(error)\n")
            return ExitStatus.failure
        }
        let scheme = tls == nil ? "http" : "https"
        let host = options.host.contains(":") ? "[\(options.host)]" : options.host
        var lines = ["herald emulator: listening on \(scheme)://\(host):\(emulator.port) (\(options.production ? "production" : "sandbox"))"]
        if let caPath { lines.append("  clients trust the CA in \(caPath) (herald send --ca-file \(caPath))") }
        if keys.isEmpty {
            lines.append("  no --auth-key: only certificate-authenticated requests can succeed")
        } else {
            lines.append("  accepts provider tokens of key \(keys[0].keyID), team \(keys[0].teamID)")
        }
        lines.append("  tokens: \(options.strictTokens ? "strict (registered devices only)" : "open (any well-formed token)")")
        lines.append("  delivery log: GET \(scheme)://\(host):\(emulator.port)/control/v1/deliveries; stop with Ctrl-C")
        context.standardOutput(lines.joined(separator: "\n") + "\n")
        context.onListening(emulator.port)
        await context.waitForTermination()
        await emulator.shutdown()
        await loops.shutdown()
        context.standardOutput("herald emulator: stopped after answering \(emulator.log.totalCount) requests\n")
        return ExitStatus.success
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

    /// The server's TLS: the given certificate, else one in the data directory (made on first run).
    private func makeTLS() throws(EmulatorSetupError) -> (TLSContext?, String?) {
        if options.plaintext { return (nil, nil) }
        do {
            if let certificatePath = options.tlsCertificate, let keyPath = options.tlsKey {
                let chain = try Certificate.chain(contentsOfFile: certificatePath)
                let key = try PrivateKey(contentsOfFile: keyPath)
                return (try TLSContext(.server(certificateChain: chain, privateKey: key)), nil)
            }
            let directory = options.dataDirectory
            let caPath = directory + "/ca.pem"
            let certificatePath = directory + "/emulator-cert.pem"
            let keyPath = directory + "/emulator-key.pem"
            if access(caPath, R_OK) != 0 || access(certificatePath, R_OK) != 0 || access(keyPath, R_OK) != 0 {
                if mkdir(directory, 0o755) != 0 && errno != EEXIST {
                    throw EmulatorSetupError("cannot create --data-dir '\(directory)': \(String(cString: strerror(errno)))")
                }
                let authority = try CertificateAuthority.generate(commonName: "Herald Emulator CA")
                let (certificate, key) = try authority.issue(
                    commonName: "localhost", subjectAlternativeNames: ["localhost", "127.0.0.1", "::1"])
                try context.writeFile(caPath, Array(try authority.certificate.pem().utf8))
                try context.writeFile(certificatePath, Array((try certificate.pem() + authority.certificate.pem()).utf8))
                try context.writeFile(keyPath, Array(try key.pkcs8PEM().utf8))
                chmod(keyPath, 0o600)
            }
            let chain = try Certificate.chain(contentsOfFile: certificatePath)
            let key = try PrivateKey(contentsOfFile: keyPath)
            return (try TLSContext(.server(certificateChain: chain, privateKey: key)), caPath)
        } catch let error as EmulatorSetupError {
            throw error
        } catch {
            throw EmulatorSetupError("TLS: \(error)")
        }
    }
}

struct EmulatorSetupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
