import APNs
import APNsClient

/// `herald send`: lints, then sends one payload to each token (or a stream of NDJSON requests),
/// printing one line per result and a summary.
struct SendCommand {
    let options: SendOptions
    let context: CommandContext

    func run() async -> Int32 {
        if options.channel != nil {
            return await BroadcastSend(options: options, context: context).run()
        }
        if case .requests = options.payload {
            return await BulkSend(options: options, context: context).run()
        }
        let plan: SendPlan
        do {
            plan = try SendPlan.make(options, context: context)
        } catch {
            if let report = error.report {
                for finding in report.findings { context.standardError("\(finding.description)\n") }
            }
            context.standardError("herald send: \(error.message)\n")
            return ExitStatus.failure
        }
        for finding in plan.report.findings where finding.severity != .info {
            context.standardError("\(finding.description)\n")
        }
        if options.dryRun {
            printDryRun(plan)
            return ExitStatus.success
        }
        return await Sender(options: options, context: context).send(plan.notifications)
    }

    private func printDryRun(_ plan: SendPlan) {
        let endpoint = (try? Sender.endpoint(for: options)) ?? APNsEndpoint.sandbox
        for notification in plan.notifications {
            let authorization: String? =
                if case .token = options.credentials { "bearer <provider token>" } else { nil }
            let request = APNsRequest(notification: notification, authority: endpoint.authority, authorization: authorization)
            if options.json {
                var object = JSONObject()
                object["endpoint"] = .string(endpoint.description)
                object["headers"] = .object(JSONObject(request.headers.map { .init(key: $0.name, value: .string($0.value)) }))
                object["payload"] = (try? JSONValue(parsing: request.body)) ?? .string(String(decoding: request.body, as: UTF8.self))
                context.standardOutput(JSONValue.object(object).encodedString + "\n")
            } else {
                context.standardOutput("POST \(endpoint.description)\(request.header(":path") ?? "")\n")
                for header in request.headers where !header.name.hasPrefix(":") {
                    context.standardOutput("\(header.name): \(header.value)\n")
                }
                context.standardOutput("\n" + String(decoding: request.body, as: UTF8.self) + "\n\n")
            }
        }
        context.standardError("dry run: \(plan.tokens.count) notification(s) linted, none sent\n")
    }
}
