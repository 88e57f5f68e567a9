import APNs
import APNsClient
import DeviceModel
import Doctor
import HTTP2

/// `herald doctor`: gathers what is known about one notification (the command line's payload and headers,
/// the emulator's delivery log, the gateway's deliveries), hands it to `Doctor.diagnose` and prints the
/// findings. Exit 0: no cause found; 1: a cause; 2: a file or a lookup failed.
struct DoctorCommand {
    let options: DoctorOptions
    let context: CommandContext

    func run() async -> Int32 {
        var input = DoctorCase()
        do {
            if let path = options.profile {
                do {
                    input.profile = try DeviceProfile(json: try context.read(path))
                } catch let error as InputError {
                    throw DoctorLookupError(error.message)
                } catch {
                    throw DoctorLookupError("--profile \(path): \(error)")
                }
                input.sources.append("device profile \(path)")
            }
            if let lint = options.lint {
                input.request = try request(lint)
                input.sources.append("lint of \(lint.input == "-" ? "standard input" : lint.input)")
            }
            if let reason = options.reason {
                let parsed = Reason(rawValue: reason)
                input.answer = APNsAnswer(status: parsed.status ?? 400, reason: parsed, timestamp: options.timestamp)
                input.sources.append("--reason")
            }
            if options.emulator != nil || options.gateway != nil {
                let loops = try EventLoopGroup(loopCount: 1, name: "herald-doctor")
                var failure: (any Error)?
                do {
                    try await lookUp(into: &input, loop: loops.loops[0])
                } catch {
                    failure = error
                }
                await loops.shutdown()
                if let failure { throw failure }
            }
        } catch let error as DoctorLookupError {
            return fail(error.message)
        } catch {
            return fail("\(error)")
        }
        let report = Doctor.diagnose(input)
        context.standardOutput(options.json ? report.json.encodedString + "\n" : report.text)
        return report.firstCause == nil ? ExitStatus.success : ExitStatus.failure
    }

    private func request(_ lint: LintOptions) throws -> LintRequest {
        let file: [UInt8]
        do {
            file = try context.read(lint.input)
        } catch {
            throw DoctorLookupError("\(error)")
        }
        return LintRequest(
            payload: PayloadFile.compacted(file), pushType: lint.pushType, topic: lint.topic, priority: lint.priority,
            expiration: lint.expiration, collapseID: lint.collapseID, apnsID: lint.apnsID, token: lint.token,
            now: context.now())
    }

    /// The gateway's notification (and the chosen delivery's apns-id), then the emulator's log entry.
    private func lookUp(into input: inout DoctorCase, loop: EventLoop) async throws {
        var apnsID = options.lint == nil ? options.apnsID : nil
        if let id = options.notification, let url = options.gateway {
            let client = HTTPLookupClient(try endpoint(url, option: "--gateway", bearer: options.apiKey), loop: loop)
            defer { client.close() }
            let evidence = try await GatewayLookup(client: client).evidence(notification: id, token: options.token)
            input.lookupFindings += evidence.findings
            if input.answer == nil { input.answer = evidence.answer }
            apnsID = evidence.chosen?.apnsID ?? apnsID
            input.sources.append("gateway notification \(id)")
        }
        guard let url = options.emulator, let apnsID else { return }
        let client = HTTPLookupClient(
            try endpoint(url, option: "--emulator", bearer: options.controlToken), loop: loop)
        defer { client.close() }
        let lookup = EmulatorLookup(client: client)
        let push = try await lookup.push(id: apnsID)
        let (answer, storage) = try await lookup.evidence(for: push)
        if input.request == nil { input.request = push.lintRequest }
        if options.reason == nil { input.answer = answer }
        input.storage = storage
        input.sources.append("emulator delivery log (apns-id \(push.apnsID ?? apnsID))")
    }

    private func endpoint(_ url: String, option: String, bearer: String?) throws -> LookupEndpoint {
        let parsed: APNsEndpoint
        do {
            parsed = try APNsEndpoint(url: url)
        } catch {
            throw DoctorLookupError("\(option): \(error)")
        }
        guard parsed.usesTLS else { return LookupEndpoint(host: parsed.host, port: parsed.port, bearer: bearer) }
        let caFile: String?
        do {
            caFile = try TrustedCA.path(given: options.caFile, host: parsed.host, usesTLS: true, context: context)
        } catch {
            throw DoctorLookupError(error.message)
        }
        do {
            let tls = try TLSContext(
                .client(serverHostname: parsed.host, trustRoots: caFile.map { .file($0) } ?? .systemDefault))
            return LookupEndpoint(host: parsed.host, port: parsed.port, tls: tls, bearer: bearer)
        } catch {
            throw DoctorLookupError((caFile.map { "--ca-file \($0): " } ?? "TLS: ") + "\(error)")
        }
    }

    private func fail(_ message: String) -> Int32 {
        context.standardError("herald doctor: \(TrustedCA.explaining(message))\n")
        return ExitStatus.usage
    }
}
