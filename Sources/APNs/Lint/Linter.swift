// The payload linter: every rule APNs enforces on a request and every contract that makes a
// notification misbehave on a device, as findings with stable rule ids.
//
// Order: the payload's bytes (empty, JSON, size), the headers and token, then the push type (given
// or inferred), then the aps dictionary's types and the contracts of that push type. Checks that
// need a parsed payload are skipped when it does not parse; the JSON finding says why.

/// Checks notifications against APNs's rules and the device's contracts.
public enum Linter {
    /// Every finding for `request`, errors first.
    public static func lint(_ request: LintRequest) -> LintReport {
        var context = LintContext(request: request)
        context.checkPayloadBytes()
        context.checkHeaders()
        context.resolvePushType()
        context.checkSize()
        context.checkTopic()
        context.checkPriority()
        context.checkStructure()
        context.checkContracts()
        context.checkLiveActivity()
        context.checkDestination()
        let findings = context.findings.enumerated()
            .sorted { ($0.element.severity, $0.offset) < ($1.element.severity, $1.offset) }
            .map(\.element)
        return LintReport(
            findings: findings, pushType: context.pushType, pushTypeWasInferred: context.pushTypeWasInferred,
            payloadSize: request.payload.count, payloadLimit: context.payloadLimit)
    }

    /// Lints a payload given as JSON text, with optional headers (convenience for tests and tools).
    public static func lint(json: String, pushType: PushType? = nil, topic: String? = nil, priority: Priority? = nil) -> LintReport {
        lint(LintRequest(payload: Array(json.utf8), pushType: pushType?.rawValue, topic: topic, priority: priority?.headerValue))
    }
}

struct LintContext {
    let request: LintRequest
    var findings: [Finding] = []
    /// The parsed payload; nil when it does not parse.
    var root: JSONObject?
    /// The aps dictionary; nil when absent or not an object.
    var aps: JSONObject?
    var pushType: PushType?
    var pushTypeWasInferred = false
    /// The priority header when valid; nil when absent or malformed.
    var priority: Priority?

    init(request: LintRequest) {
        self.request = request
    }

    mutating func report(_ rule: LintRule, _ path: String, _ message: String, fix: String? = nil) {
        findings.append(Finding(rule: rule, path: path, message: message, fix: fix))
    }

    var payloadLimit: Int {
        switch request.destination {
        case .broadcast: PayloadLimits.broadcast
        case .simulatorFile: PayloadLimits.simulatorFile
        case .device: (pushType ?? .alert).payloadLimit
        }
    }

    var isLiveActivity: Bool { pushType == .liveactivity }
}
