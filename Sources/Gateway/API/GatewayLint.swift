// Herald's linter in the API: `POST /notifications` refuses a notification whose lint has errors
// (422, nothing stored; warnings pass), and `POST /v1/lint` answers the findings for a payload and
// headers. Findings name the body's fields, not APNs's headers: `priority` for `apns-priority`,
// `payload.aps.alert` for `aps.alert`, so a client can point at what it sent.
import APNs

enum GatewayLint {
    /// The linter's view of a notification as the gateway will send it: its topic (the bundle id,
    /// with the push type's suffix for a device; bare for a channel's broadcast), the headers it
    /// sets (no priority header when none was given), `now` in milliseconds.
    static func lint(_ request: NotificationRequest, now: Int) -> LintReport {
        let broadcast: Bool
        if case .channel = request.to { broadcast = true } else { broadcast = false }
        return Linter.lint(
            LintRequest(
                payload: request.payload, pushType: request.pushType.rawValue,
                topic: broadcast ? request.bundleID : request.topic, priority: request.priority?.headerValue,
                expiration: request.expiration?.headerValue, collapseID: request.collapseID?.value,
                destination: broadcast ? .broadcast : .device, now: now / 1000))
    }

    /// The 422 for a report with errors: the first error in `error`, every finding beside it.
    static func refusal(_ report: LintReport) -> GatewayAPIError {
        let errors = report.findings(.error)
        let first = errors.first
        let summary = first.map { "\(body(path: $0.path)): \($0.message)" } ?? "lint failed"
        var error = GatewayAPIError(
            status: 422, code: "lint-failed",
            message: "the notification breaks \(errors.count) lint rule\(errors.count == 1 ? "" : "s") (\(summary))",
            field: first.map { body(path: $0.path) })
        error.extra.append(key: "findings", value: .array(report.findings.map(json)))
        return error
    }

    /// `POST /v1/lint`'s answer.
    static func answer(_ report: LintReport) -> JSONValue {
        var object = JSONObject()
        object.append(key: "valid", value: .bool(!report.hasErrors))
        object.append(key: "findings", value: .array(report.findings.map(json)))
        object.append(key: "push-type", value: report.pushType.map { .string($0.rawValue) } ?? .null)
        object.append(key: "push-type-inferred", value: .bool(report.pushTypeWasInferred))
        object.append(key: "payload-size", value: .number(JSONNumber(report.payloadSize)))
        object.append(key: "payload-limit", value: .number(JSONNumber(report.payloadLimit)))
        return .object(object)
    }

    /// A finding as `herald lint --json` writes one, its path the body's.
    static func json(_ finding: Finding) -> JSONValue {
        var object = JSONObject()
        object.append(key: "rule", value: .string(finding.rule.id))
        object.append(key: "severity", value: .string(finding.severity.rawValue))
        object.append(key: "path", value: .string(body(path: finding.path)))
        object.append(key: "message", value: .string(finding.message))
        object.append(key: "fix", value: finding.fix.map(JSONValue.string) ?? .null)
        if let reason = finding.rule.reason { object.append(key: "apns-reason", value: .string(reason.rawValue)) }
        return .object(object)
    }

    /// The body field a linter path is about: a header's name without `apns-`, `payload` itself,
    /// `token`, or a key inside the payload under `payload.`.
    static func body(path: String) -> String {
        if path.hasPrefix("apns-") { return String(path.dropFirst(5)) }
        if path == "payload" || path == "token" { return path }
        return "payload." + path
    }
}

/// The body of `POST /v1/lint`: `{"payload":..., "push-type", "topic", "priority", "expiration",
/// "collapse-id", "token", "destination"}`, only `payload` required. Header values are passed to
/// the linter as they are (a number's digits, a string as is): a malformed one is a finding, not
/// a 400.
enum LintBody {
    static let fields = [
        "payload", "push-type", "topic", "priority", "expiration", "collapse-id", "token", "destination",
    ]

    static func request(parsing bytes: [UInt8], now: Int) throws(GatewayAPIError) -> LintRequest {
        let object = try BodyFields.object(bytes)
        try BodyFields.refuseRepeatsAndUnknown(object, at: "", allowed: fields)
        guard let payload = object["payload"] else {
            throw .badRequest(field: "payload", "is missing; send the payload to lint")
        }
        var destination = LintRequest.Destination.device
        if let text = try BodyFields.string(object, "destination") {
            guard let value = LintRequest.Destination(rawValue: text), value != .simulatorFile else {
                throw .badRequest(field: "destination", "is '\(text)'; use device or broadcast")
            }
            destination = value
        }
        return LintRequest(
            payload: payload.encoded(), pushType: try BodyFields.headerText(object, "push-type"),
            topic: try BodyFields.headerText(object, "topic"), priority: try BodyFields.headerText(object, "priority"),
            expiration: try BodyFields.headerText(object, "expiration"),
            collapseID: try BodyFields.headerText(object, "collapse-id"),
            token: try BodyFields.headerText(object, "token"), destination: destination, now: now / 1000)
    }

    static let schema: JSONValue = [
        "type": "object",
        "additionalProperties": false,
        "required": ["payload"],
        "properties": [
            "payload": ["description": "the notification's JSON payload"],
            "push-type": ["type": "string"],
            "topic": ["type": "string"],
            "priority": ["type": ["integer", "string"]],
            "expiration": ["type": ["integer", "string"]],
            "collapse-id": ["type": "string"],
            "token": ["type": "string"],
            "destination": ["type": "string", "enum": ["device", "broadcast"]],
        ],
    ]
}
