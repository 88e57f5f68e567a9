import APNs
import APNsClient

/// `herald channels create|read|delete|list`: one channel management request, its result on
/// standard output (a line, or a JSON object with --json), a refusal on standard error.
struct ChannelsCommand {
    let options: ChannelsOptions
    let context: CommandContext

    func run() async -> Int32 {
        let client: APNsClient
        do {
            let endpoint = try Sender.broadcastEndpoint(for: options.destination, management: true)
            client = try Sender.makeClient(
                credentials: options.credentials, endpoint: endpoint, caFile: options.caFile, proxy: options.proxy,
                connections: 1, retries: 2, timeoutSeconds: options.timeoutSeconds, context: context)
        } catch {
            context.standardError("herald channels: \(error)\n")
            return ExitStatus.failure
        }
        let status: Int32
        do throws(APNsClientError) {
            try await perform(client)
            status = ExitStatus.success
        } catch {
            report(error)
            status = ExitStatus.failure
        }
        await client.shutdown()
        return status
    }

    private func perform(_ client: APNsClient) async throws(APNsClientError) {
        let bundleID = options.bundleID
        let requestID = options.requestID.flatMap { try? APNsID($0) }
        var object = JSONObject()
        var line: String
        switch options.action {
        case .create:
            let created = try await client.createChannel(
                bundleID: bundleID, storagePolicy: options.storagePolicy ?? .mostRecentMessage, requestID: requestID)
            object["status"] = .number(JSONNumber(201))
            object["apns-channel-id"] = .string(created.channelID.value)
            object["apns-request-id"] = .string(created.requestID)
            line = created.channelID.value
        case .read:
            guard let channelID = options.channelID else { throw .invalidNotification("--channel is missing") }
            let channel = try await client.readChannel(channelID, bundleID: bundleID, requestID: requestID)
            object["status"] = .number(JSONNumber(200))
            object["apns-channel-id"] = .string(channelID.value)
            object["message-storage-policy"] = .number(JSONNumber(channel.configuration.storagePolicy.rawValue))
            object["push-type"] = .string(channel.configuration.pushType)
            object["apns-request-id"] = .string(channel.requestID)
            line =
                "\(channelID.value) message-storage-policy \(channel.configuration.storagePolicy) "
                + "push-type \(channel.configuration.pushType)"
        case .delete:
            guard let channelID = options.channelID else { throw .invalidNotification("--channel is missing") }
            let id = try await client.deleteChannel(channelID, bundleID: bundleID, requestID: requestID)
            object["status"] = .number(JSONNumber(204))
            object["apns-channel-id"] = .string(channelID.value)
            object["apns-request-id"] = .string(id)
            line = "deleted \(channelID.value)"
        case .list:
            let channels = try await client.listChannels(bundleID: bundleID, requestID: requestID)
            object["status"] = .number(JSONNumber(200))
            object["channels"] = .array(channels.map { .string($0.value) })
            line = channels.map(\.value).joined(separator: "\n")
        }
        if options.json {
            context.standardOutput(JSONValue.object(object).encodedString + "\n")
        } else if !line.isEmpty {
            context.standardOutput(line + "\n")
        }
    }

    private func report(_ error: APNsClientError) {
        if options.json {
            var object = JSONObject()
            if case .rejected(let rejection) = error {
                object["status"] = .number(JSONNumber(rejection.status))
                object["reason"] = .string(rejection.reason.rawValue)
                object["apns-request-id"] = rejection.apnsID.map(JSONValue.string) ?? .null
            } else {
                object["status"] = .null
                object["error"] = .string(error.description)
            }
            context.standardOutput(JSONValue.object(object).encodedString + "\n")
        }
        context.standardError("herald channels \(options.action.rawValue): \(TrustedCA.explaining(error.description))\n")
    }
}
