import APNs
import APNsClient

/// `herald send --requests --dry-run`: what each line would send (its request line and headers,
/// then its payload), the refusal of each bad line with its number (on standard error, as in a
/// real send), and a summary: "N would be sent, M refused".
struct BulkDryRun {
    let options: SendOptions
    let context: CommandContext

    func run(_ requests: DecodedRequestStream) -> Int32 {
        let endpoint = (try? Sender.endpoint(for: options)) ?? APNsEndpoint.sandbox
        let authorization: String? = if case .token = options.credentials { "bearer <provider token>" } else { nil }
        var count = 0
        for notification in requests {
            count += 1
            let request = APNsRequest(
                notification: notification, authority: endpoint.authority, authorization: authorization)
            let headers = request.headers.filter { !$0.name.hasPrefix(":") && $0.name != "authorization" }
            if options.json {
                var object = JSONObject()
                object["line"] = .number(JSONNumber(requests.lastLine))
                object["endpoint"] = .string(endpoint.description)
                object["path"] = .string(request.header(":path") ?? "")
                object["headers"] = .object(JSONObject(headers.map { .init(key: $0.name, value: .string($0.value)) }))
                object["payload"] =
                    (try? JSONValue(parsing: request.body)) ?? .string(String(decoding: request.body, as: UTF8.self))
                context.standardOutput(JSONValue.object(object).encodedString + "\n")
            } else if !options.quiet {
                let fields = headers.map { "\($0.name): \($0.value)" }.joined(separator: ", ")
                context.standardOutput(
                    "line \(requests.lastLine): POST \(request.header(":path") ?? "") \(fields) "
                        + String(decoding: request.body, as: UTF8.self) + "\n")
            }
            requests.retire(consume notification)
        }
        let summary = "dry run: \(count) would be sent, \(requests.refused) refused, none sent"
        if options.json {
            var object = JSONObject()
            object["would-send"] = .number(JSONNumber(count))
            object["refused"] = .number(JSONNumber(requests.refused))
            context.standardOutput(#"{"summary":"# + JSONValue.object(object).encodedString + "}\n")
        }
        context.standardError(summary + "\n")
        return requests.refused == 0 ? ExitStatus.success : ExitStatus.failure
    }
}
