import APNs

extension APIKeyStore {
    /// Makes a key and returns it with its secret, which is stored only as a digest: show it once.
    public func createAPIKey(name: String, scope: APIKey.Scope, bundleID: String?, now: Int)
        async throws(GatewayStoreError) -> (key: APIKey, secret: String)
    {
        let secret = APIKey.newSecret()
        let key = APIKey(id: APIKey.newID(), name: name, scope: scope, bundleID: bundleID, createdAt: now)
        try await insertAPIKey(key, secretHash: APIKey.hash(secret: secret))
        return (key, secret)
    }

    /// The live key with this secret, or nil.
    public func verifyAPIKey(secret: String) async throws(GatewayStoreError) -> APIKey? {
        let digest = APIKey.hash(secret: secret)
        guard digest.count == 32 else { return nil }
        return try await apiKey(secretHash: digest)
    }
}

extension DeviceStore {
    /// Imports `registrations` in transactions of `batchSize`, reading the sequence as it goes (a
    /// file of a million lines is never in memory at once). Returns the number imported.
    @discardableResult
    public func importDevices(
        _ registrations: some Sequence<DeviceRegistration>, batchSize: Int = 10_000, now: Int
    ) async throws(GatewayStoreError) -> Int {
        var batch: [DeviceRegistration] = []
        batch.reserveCapacity(max(1, batchSize))
        var total = 0
        for registration in registrations {
            batch.append(registration)
            if batch.count >= max(1, batchSize) {
                try await importDevices(batch, now: now)
                total += batch.count
                batch.removeAll(keepingCapacity: true)
                // SQLite's batch ran without suspending: let other tasks have the thread.
                await Task.yield()
            }
        }
        if !batch.isEmpty {
            try await importDevices(batch, now: now)
            total += batch.count
        }
        try await finishImport()
        return total
    }

    public func finishImport() async throws(GatewayStoreError) {}
}

extension NotificationStore {
    /// Expands the notification to the end, `chunkSize` rows per transaction.
    @discardableResult
    public func expandFully(id: NotificationID, chunkSize: Int = 1_000, now: Int) async throws(GatewayStoreError)
        -> ExpansionProgress
    {
        try await expandNotification(id: id, chunkSize: chunkSize, maximumChunks: .max, now: now)
    }
}

extension NotificationStore {
    /// Expands one chunk and claims nothing: the rows are due at once, and `claimDeliveries`
    /// takes them. A store overrides this to save the claim (SQLite and the in-memory store do).
    public func expandAndClaim(id: NotificationID, chunkSize: Int, claimer: String, leaseMilliseconds: Int, now: Int)
        async throws(GatewayStoreError) -> ClaimedExpansion
    {
        let progress = try await expandNotification(id: id, chunkSize: chunkSize, maximumChunks: 1, now: now)
        return ClaimedExpansion(progress: progress, claim: DeliveryClaim(deliveries: [], notifications: [:]))
    }
}

/// The store's limits on one call.
enum StoreLimits {
    /// Chunks and batches are clamped to this many rows, so one call's memory stays bounded.
    static let maximumBatch = 10_000

    static func clamp(_ count: Int) -> Int { min(max(1, count), maximumBatch) }
}
