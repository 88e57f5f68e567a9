import APNs
import APNsClient

/// Prints one line per result (`token status apns-id [reason [(since TIME)]]`, or a JSON object with --json) and
/// the closing summary: what reached APNs and what did not, Apple's reasons explained apart from
/// Herald's own failures, latency percentiles.
struct ResultPrinter {
    let options: SendOptions
    let context: CommandContext

    func print(_ notification: Notification, _ result: Result<APNsResponse, APNsClientError>) {
        switch result {
        case .success(let response):
            if options.quiet { return }
            if options.json {
                var object = JSONObject()
                object["token"] = .string(notification.token.hex)
                object["status"] = .number(JSONNumber(200))
                object["apns-id"] = .string(response.apnsID)
                if let unique = response.uniqueID { object["apns-unique-id"] = .string(unique) }
                context.standardOutput(JSONValue.object(object).encodedString + "\n")
            } else {
                context.standardOutput("\(notification.token.hex) 200 \(response.apnsID)\n")
            }
        case .failure(let error):
            if options.json {
                var object = JSONObject()
                object["token"] = .string(notification.token.hex)
                if case .rejected(let rejection) = error {
                    object["status"] = .number(JSONNumber(rejection.status))
                    object["apns-id"] = rejection.apnsID.map(JSONValue.string) ?? .null
                    object["reason"] = .string(rejection.reason.rawValue)
                    if let timestamp = rejection.timestampMilliseconds {
                        object["timestamp"] = .number(JSONNumber(timestamp))
                    }
                } else {
                    object["status"] = .null
                    object["error"] = .string(TrustedCA.explaining(error.description))
                }
                context.standardOutput(JSONValue.object(object).encodedString + "\n")
            } else if case .rejected(let rejection) = error {
                // A 410 says since when the token is dead: a token registered again after that is live.
                let since = rejection.timestampMilliseconds.map { " (since \(utcTimestamp(milliseconds: $0)))" } ?? ""
                context.standardOutput(
                    "\(notification.token.hex) \(rejection.status) \(rejection.apnsID ?? "-") \(rejection.reason)\(since)\n"
                )
            } else {
                context.standardOutput("\(notification.token.hex) - - \(TrustedCA.explaining(error.description))\n")
            }
        }
    }

    func summary(_ metrics: MetricsSnapshot, elapsedSeconds: Double?) {
        let total = metrics.succeeded + metrics.failed
        let latency = metrics.latency
        let outcome = SendOutcome(metrics)
        if options.json {
            var object = JSONObject()
            object["total"] = .number(JSONNumber(total))
            object["succeeded"] = .number(JSONNumber(metrics.succeeded))
            object["failed"] = .number(JSONNumber(metrics.failed))
            object["rejected"] = .number(JSONNumber(outcome.rejected))
            object["not-sent"] = .number(JSONNumber(outcome.notSent))
            object["retried"] = .number(JSONNumber(metrics.retried))
            object["failed-by-reason"] = .object(
                JSONObject(
                    metrics.failedByReason.sorted { $0.key < $1.key }
                        .map { .init(key: $0.key, value: .number(JSONNumber($0.value))) }))
            object["latency-microseconds"] = [
                "p50": .number(JSONNumber(Int(latency.percentile(0.5)))),
                "p90": .number(JSONNumber(Int(latency.percentile(0.9)))),
                "p99": .number(JSONNumber(Int(latency.percentile(0.99)))),
                "max": .number(JSONNumber(Int(latency.maximumMicroseconds))),
            ]
            if let elapsedSeconds { object["seconds"] = .number(JSONNumber(elapsedSeconds) ?? JSONNumber(0)) }
            context.standardOutput(#"{"summary":"# + JSONValue.object(object).encodedString + "}\n")
            return
        }
        var line =
            "\(outcome.reached) sent (reached APNs): \(metrics.succeeded) accepted, \(outcome.rejected) rejected;"
            + " \(outcome.notSent) not sent"
        if metrics.retried > 0 { line += "; \(metrics.retried) retried" }
        if let elapsedSeconds, elapsedSeconds > 0 {
            line +=
                " in \(decimal(elapsedSeconds, places: 2)) s (\(decimal(Double(total) / elapsedSeconds, places: 0))/s)"
        }
        var lines = [line]
        if !outcome.byReason.isEmpty {
            lines.append("rejected by APNs:")
            for (reason, count) in outcome.byReason {
                lines.append("  \(count) \(reason): \(SendOutcome.explain(reason))")
            }
        }
        if !outcome.byHeraldCategory.isEmpty {
            lines.append("not sent, or no answer (Herald's own failures):")
            for (category, count) in outcome.byHeraldCategory {
                lines.append("  \(count) \(category): \(SendOutcome.explain(category: category))")
            }
        }
        if latency.count > 0 {
            lines.append(
                "latency: p50 \(Self.format(latency.percentile(0.5))), p90 \(Self.format(latency.percentile(0.9))), "
                    + "p99 \(Self.format(latency.percentile(0.99))), max \(Self.format(latency.maximumMicroseconds))")
        }
        context.standardError(lines.joined(separator: "\n") + "\n")
    }

    static func format(_ microseconds: UInt64) -> String {
        if microseconds < 1000 { return "\(microseconds) µs" }
        if microseconds < 1_000_000 { return "\(decimal(Double(microseconds) / 1000, places: 1)) ms" }
        return "\(decimal(Double(microseconds) / 1_000_000, places: 2)) s"
    }
}

/// `value` rounded to `places` decimals, without Foundation.
func decimal(_ value: Double, places: Int) -> String {
    guard value.isFinite else { return "-" }
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let scaled = Int((abs(value) * scale).rounded())
    let sign = value < 0 && scaled != 0 ? "-" : ""
    guard places > 0 else { return sign + String(scaled) }
    let whole = scaled / Int(scale)
    var fraction = String(scaled % Int(scale))
    while fraction.count < places { fraction = "0" + fraction }
    return "\(sign)\(whole).\(fraction)"
}
