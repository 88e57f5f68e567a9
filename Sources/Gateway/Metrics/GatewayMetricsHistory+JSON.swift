import APNs

extension GatewayMetricsHistory {
    /// `GET /v1/metrics/history`'s answer (docs/GATEWAY.md, `gateway-metrics-history`), oldest first,
    /// the interval running at `now` last.
    func json(until now: Int, of metrics: GatewayMetrics) -> JSONValue {
        func number(_ value: Double?) -> JSONValue {
            value.flatMap { JSONNumber(($0 * 1_000_000).rounded() / 1_000_000) }.map(JSONValue.number) ?? .null
        }
        let samples: [JSONValue] = samples(until: now, of: metrics).map { sample in
            var sends = JSONObject()
            for status in GatewayMetrics.SendStatus.allCases {
                sends.append(key: status.rawValue, value: .number(JSONNumber(sample.sends[status] ?? 0)))
            }
            var failures = JSONObject()
            for (reason, count) in sample.failures.sorted(by: { $0.key < $1.key }) {
                failures.append(key: reason, value: .number(JSONNumber(count)))
            }
            var object = JSONObject()
            object.append(key: "at", value: .number(JSONNumber(sample.at)))
            object.append(key: "seconds", value: number(Double(sample.milliseconds) / 1_000))
            object.append(key: "sends-per-second", value: number(sample.sendsPerSecond))
            object.append(key: "sends", value: .object(sends))
            object.append(key: "failures", value: .object(failures))
            object.append(
                key: "latency-seconds",
                value: ["p50": number(sample.p50), "p90": number(sample.p90), "p99": number(sample.p99)])
            object.append(key: "queue-depth", value: sample.queueDepth.map { .number(JSONNumber($0)) } ?? .null)
            object.append(key: "partial", value: .bool(sample.partial))
            return .object(object)
        }
        return [
            "interval-seconds": number(Double(interval) / 1_000), "capacity": .number(JSONNumber(capacity)),
            "samples": .array(samples),
        ]
    }
}
