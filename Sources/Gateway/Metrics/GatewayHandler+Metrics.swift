import APNs

extension GatewayHandler {
    /// `GET /metrics` and `GET /v1/metrics/history` for `key`: an admin key for every app (the figures
    /// cover them all).
    func metricsAnswer(_ key: APIKey, _ route: GatewayRoute) throws(GatewayAPIError) -> GatewayAnswer {
        if let required = route.scope, !key.scope.covers(required) {
            throw .forbidden("a \(key.scope) key may not \(route.method) \(route.pattern); it needs an admin key")
        }
        if let app = key.bundleID {
            throw .forbidden(
                "this key serves '\(app)' only; the metrics cover every app: use an admin key for all apps")
        }
        if route.operation == .metricsHistory {
            return GatewayAnswer(
                status: 200,
                body: configuration.metrics.history.json(until: configuration.clock(), of: configuration.metrics))
        }
        let text = Array(configuration.metrics.prometheusText().utf8)
        return GatewayAnswer(status: 200, body: nil, text: (GatewayMetrics.prometheusContentType, text))
    }
}
