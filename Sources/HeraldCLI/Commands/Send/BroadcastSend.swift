import APNs
import APNsClient

/// `herald send --channel ID`: lints the payload with the broadcast rules, then sends one
/// broadcast and prints `channel status apns-request-id [reason]` (or a JSON object).
struct BroadcastSend {
    let options: SendOptions
    let context: CommandContext

    func run() async -> Int32 {
        let broadcast: Broadcast
        do {
            broadcast = try plan()
        } catch {
            if let report = error.report {
                for finding in report.findings { context.standardError("\(finding.description)\n") }
            }
            context.standardError("herald send: \(error.message)\n")
            return ExitStatus.failure
        }
        let endpoint: APNsEndpoint
        let client: APNsClient
        do {
            endpoint = try Sender.broadcastEndpoint(for: options.destination, management: false)
            client = try Sender.makeClient(
                credentials: options.credentials, endpoint: endpoint, caFile: options.caFile, proxy: options.proxy,
                connections: 1, retries: options.retries ?? 2, timeoutSeconds: options.timeoutSeconds, context: context)
        } catch {
            context.standardError("herald send: \(error)\n")
            return ExitStatus.failure
        }
        if options.dryRun {
            context.standardOutput("POST \(endpoint)\(BroadcastPaths.broadcast(bundleID: broadcast.bundleID))\n")
            context.standardOutput("apns-push-type: liveactivity\napns-channel-id: \(broadcast.channelID)\n")
            if let priority = broadcast.priority { context.standardOutput("apns-priority: \(priority)\n") }
            if let expiration = broadcast.expiration { context.standardOutput("apns-expiration: \(expiration)\n") }
            context.standardOutput("\n" + String(decoding: broadcast.payload.bytes, as: UTF8.self) + "\n\n")
            context.standardError("dry run: 1 broadcast linted, none sent\n")
            await client.shutdown()
            return ExitStatus.success
        }
        let result: Result<String, APNsClientError>
        do throws(APNsClientError) {
            result = .success(try await client.broadcast(broadcast))
        } catch {
            result = .failure(error)
        }
        await client.shutdown()
        print(result, channel: broadcast.channelID.value)
        return (try? result.get()) != nil ? ExitStatus.success : ExitStatus.failure
    }

    /// Reads and lints the payload (broadcast rules), checks the header values.
    private func plan() throws(SendPlan.Problem) -> Broadcast {
        let payload = try SendPlan.readPayload(options, context: context)
        let report = Linter.lint(
            LintRequest(
                payload: payload.bytes, pushType: options.pushType ?? PushType.liveactivity.rawValue,
                topic: options.topic,
                priority: options.priority, expiration: options.expiration, apnsID: options.apnsID,
                destination: .broadcast, now: context.now()))
        if report.hasErrors && !options.force {
            throw SendPlan.Problem(
                message: "lint found errors; fix them or pass --force to send anyway", report: report)
        }
        for finding in report.findings where finding.severity != .info {
            context.standardError("\(finding.description)\n")
        }
        do {
            return Broadcast(
                bundleID: options.topic ?? "", channelID: try ChannelID(options.channel ?? ""),
                priority: try options.priority.map(Priority.init(headerValue:)),
                expiration: try options.expiration.map(Expiration.init(headerValue:)),
                requestID: try options.apnsID.map(APNsID.init), payload: payload)
        } catch {
            throw SendPlan.Problem(message: "cannot send: \(error)", report: nil)
        }
    }

    private func print(_ result: Result<String, APNsClientError>, channel: String) {
        var object = JSONObject()
        object["channel"] = .string(channel)
        var line: String
        switch result {
        case .success(let requestID):
            object["status"] = .number(JSONNumber(200))
            object["apns-request-id"] = .string(requestID)
            line = "\(channel) 200 \(requestID)"
        case .failure(.rejected(let rejection)):
            object["status"] = .number(JSONNumber(rejection.status))
            object["apns-request-id"] = rejection.apnsID.map(JSONValue.string) ?? .null
            object["reason"] = .string(rejection.reason.rawValue)
            line = "\(channel) \(rejection.status) \(rejection.apnsID ?? "-") \(rejection.reason)"
        case .failure(let error):
            object["status"] = .null
            object["error"] = .string(TrustedCA.explaining(error.description))
            line = "\(channel) - - \(TrustedCA.explaining(error.description))"
        }
        context.standardOutput((options.json ? JSONValue.object(object).encodedString : line) + "\n")
    }
}
