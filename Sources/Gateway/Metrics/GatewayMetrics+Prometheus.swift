// The Prometheus text exposition format (version 0.0.4), as `GET /metrics` serves it:
//
//   # HELP <name> <text, with \ and newline escaped>
//   # TYPE <name> counter|gauge|histogram
//   <name>{<label>="<value, with \ " and newline escaped>",...} <number>
//
// Each family's HELP and TYPE come once, before its samples; a histogram has cumulative
// `_bucket{le=...}` samples ending with le="+Inf", then `_sum` and `_count`.

extension GatewayMetrics {
    /// The `content-type` of ``prometheusText()``.
    public static let prometheusContentType = "text/plain; version=0.0.4; charset=utf-8"

    /// Every metric in Prometheus's text format.
    public func prometheusText() -> String {
        let state = self.state.withLock { $0 }
        let connections = connectionCount.withLock { $0 }?() ?? 0
        var text = ""
        family(
            &text, "herald_gateway_sends_total", .counter,
            "Sends to APNs by outcome: succeeded; retryable (tried again later: 429, 5xx, transport failures); "
                + "failed (final: 4xx, retry cap, or not sent). reason is APNs's or the gateway's.")
        for (key, count) in state.sends.sorted(by: {
            ($0.key.status.rawValue, $0.key.reason) < ($1.key.status.rawValue, $1.key.reason)
        }) {
            sample(
                &text, "herald_gateway_sends_total", [("status", key.status.rawValue), ("reason", key.reason)],
                "\(count)")
        }
        family(
            &text, "herald_gateway_send_duration_seconds", .histogram,
            "Time from handing a delivery to the APNs client to its answer, the client's own resends included.")
        var cumulative = 0
        for (index, bound) in LatencyBuckets.upperBounds.enumerated() {
            cumulative += state.latencyBuckets[index]
            sample(&text, "herald_gateway_send_duration_seconds_bucket", [("le", bound.label)], "\(cumulative)")
        }
        sample(&text, "herald_gateway_send_duration_seconds_bucket", [("le", "+Inf")], "\(state.latencyCount)")
        sample(
            &text, "herald_gateway_send_duration_seconds_sum", [], "\(Double(state.latencySumMicroseconds) / 1_000_000)"
        )
        sample(&text, "herald_gateway_send_duration_seconds_count", [], "\(state.latencyCount)")
        family(
            &text, "herald_gateway_queue_depth", .gauge,
            "Deliveries pending (due, claimed or waiting for a retry), as the store last counted them.")
        sample(&text, "herald_gateway_queue_depth", [], state.queueDepth.map { "\($0)" } ?? "NaN")
        family(&text, "herald_gateway_sends_in_flight", .gauge, "Sends handed to an APNs client and not yet answered.")
        sample(&text, "herald_gateway_sends_in_flight", [], "\(max(0, inFlight.load(ordering: .relaxed)))")
        family(
            &text, "herald_gateway_pruned_tokens_total", .counter,
            "Tokens the pruning rule made unregistered or invalid (410, BadDeviceToken, DeviceTokenNotForTopic).")
        sample(&text, "herald_gateway_pruned_tokens_total", [], "\(state.pruned)")
        family(
            &text, "herald_gateway_apns_connections", .gauge,
            "Open HTTP/2 connections to APNs, every app and environment.")
        sample(&text, "herald_gateway_apns_connections", [], "\(connections)")
        if let claimer = state.claimer {
            // Prometheus's info pattern: the value is 1, the label says which process this is, so the
            // shares of several gateways on one database can be told apart (and matched to claimed_by).
            family(
                &text, "herald_gateway_instance_info", .gauge,
                "This gateway process: claimer is its delivery engine's id in the deliveries' claimed_by.")
            sample(&text, "herald_gateway_instance_info", [("claimer", claimer)], "1")
        }
        return text
    }

    enum FamilyType: String {
        case counter, gauge, histogram
    }

    private func family(_ text: inout String, _ name: String, _ type: FamilyType, _ help: String) {
        text += "# HELP \(name) \(Self.escapeHelp(help))\n# TYPE \(name) \(type.rawValue)\n"
    }

    private func sample(_ text: inout String, _ name: String, _ labels: [(String, String)], _ value: String) {
        text += name
        if !labels.isEmpty {
            text += "{" + labels.map { "\($0.0)=\"\(Self.escapeLabelValue($0.1))\"" }.joined(separator: ",") + "}"
        }
        text += " " + value + "\n"
    }

    /// A label value as the format writes it: backslash, double quote and newline escaped.
    static func escapeLabelValue(_ value: String) -> String {
        // Scalars, not Characters: "\r\n" is one Character, and its newline must be escaped too.
        guard value.unicodeScalars.contains(where: { $0 == "\\" || $0 == "\"" || $0 == "\n" }) else { return value }
        var escaped = String.UnicodeScalarView()
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": escaped.append(contentsOf: "\\\\".unicodeScalars)
            case "\"": escaped.append(contentsOf: "\\\"".unicodeScalars)
            case "\n": escaped.append(contentsOf: "\\n".unicodeScalars)
            default: escaped.append(scalar)
            }
        }
        return String(escaped)
    }

    /// HELP text as the format writes it: backslash and newline escaped.
    static func escapeHelp(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing("\n", with: "\\n")
    }
}
