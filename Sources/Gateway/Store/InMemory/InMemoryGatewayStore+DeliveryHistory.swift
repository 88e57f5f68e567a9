import APNs

extension InMemoryGatewayStore {
    /// Scans every delivery backwards from the cursor: this store is for tests and small runs.
    public func deliveries(bundleID: String, kind: Delivery.Kind, recipient: String, before cursor: Int?, limit: Int)
        async throws(GatewayStoreError) -> DeliveryPage
    {
        state.withLock { state in
            let limit = StoreLimits.clamp(limit)
            let end = min(cursor.map { $0 - 1 } ?? state.deliveries.count, state.deliveries.count)
            var rows: [Delivery] = []
            for delivery in state.deliveries[..<max(0, end)].reversed() where rows.count <= limit {
                guard delivery.kind == kind, delivery.recipient == recipient,
                    state.notifications[delivery.notificationID]?.notification.request.bundleID == bundleID
                else { continue }
                rows.append(delivery)
            }
            let page = Array(rows.prefix(limit))
            return DeliveryPage(deliveries: page, nextCursor: rows.count > limit ? page.last?.id : nil)
        }
    }
}
