// The gateway's durable state behind one protocol with two implementations: `SQLiteGatewayStore`
// (the embedded default) and `InMemoryGatewayStore` (tests, and a twin whose answers the SQLite one
// must match); PostgreSQL (issue 13) is the third. One test suite runs against every implementation
// (Tests/GatewayTests). docs/GATEWAY.md has the schema and the delivery state machine.
//
// Threading rule: the protocol is `async` because PostgreSQL's calls go over the network and must
// suspend, not block a thread. The SQLite store suspends its callers too: each call runs on the
// store's own thread (an `EventLoop`) for one short transaction and resumes the caller's
// continuation, so no caller's thread (the cooperative pool's, an event loop's) waits on the disk. Long work is cut into bounded
// calls (expansion by chunks, claims and outcomes by batch), so no call holds the connection for
// long and no call needs memory in proportion to a fan-out; loops over many calls
// (`expandNotification`'s chunks, `importDevices(_:batchSize:now:)`) yield between them.
//
// Times are milliseconds since 1970, always passed in (`now:`), so tests drive a clock.
import APNs
import Postgres
import Storage

/// Everything the gateway keeps across restarts.
public typealias GatewayStore = DeviceStore & LiveActivityStore & APIKeyStore & NotificationStore & DeliveryStore

/// Why a store call failed.
public enum GatewayStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The database failed (I/O, a full disk, a locked or corrupt file).
    case storage(SQLiteError)
    /// PostgreSQL failed (unreachable, a lost connection, a refused statement); its SQLSTATE says which.
    case database(PostgresError)
    /// A stored value cannot be read back (a row changed outside Herald): the table, column and value.
    case corrupt(table: String, column: String, value: String)
    /// No notification with this id.
    case unknownNotification(NotificationID)
    /// A value the store cannot keep (an empty tag, a batch too large, ...).
    case invalid(FieldError)

    public var description: String {
        switch self {
        case .storage(let error): "\(error)"
        case .database(let error): "\(error)"
        case .corrupt(let table, let column, let value): "\(table).\(column) holds '\(value)', which Herald cannot read"
        case .unknownNotification(let id): "no notification '\(id)'"
        case .invalid(let error): "\(error)"
        }
    }
}

/// Devices: what apps upload on every launch.
public protocol DeviceStore: Sendable {
    /// Stores the registration at `now`: a new device, or the same token again, which replaces the
    /// user, tags, locale and app version, refreshes `registeredAt` and makes the token active again
    /// (a pruned token the app still uploads has been issued again).
    func upsertDevice(_ registration: DeviceRegistration, now: Int) async throws(GatewayStoreError) -> Device
    func device(bundleID: String, token: DeviceToken) async throws(GatewayStoreError) -> Device?
    /// Forgets the device; false when there was none.
    func deleteDevice(bundleID: String, token: DeviceToken) async throws(GatewayStoreError) -> Bool
    /// The user's devices, whatever their status, in registration order.
    func devices(bundleID: String, user: String) async throws(GatewayStoreError) -> [Device]
    /// Upserts every registration in one transaction (`importDevices(_:batchSize:now:)` cuts a long
    /// sequence into such batches).
    func importDevices(_ batch: [DeviceRegistration], now: Int) async throws(GatewayStoreError)
    /// Called once a bulk import has written its batches: a store whose query planner needs fresh
    /// statistics gathers them here (PostgreSQL's `ANALYZE`), so the first fan-out after a large
    /// import is planned for the table's real size. The default does nothing.
    func finishImport() async throws(GatewayStoreError)
    /// Devices of the app by status.
    func deviceCounts(bundleID: String) async throws(GatewayStoreError) -> [TokenStatus: Int]
}

/// Live Activity tokens: push-to-start tokens per user and attributes type, update tokens per activity.
public protocol LiveActivityStore: Sendable {
    /// Stores the token at `now` (a known token is replaced, refreshed and made active again).
    func upsertPushToStartToken(
        bundleID: String, token: DeviceToken, environment: Environment, user: String?, attributesType: String, now: Int
    ) async throws(GatewayStoreError) -> PushToStartToken
    /// The user's push-to-start tokens, whatever their status.
    func pushToStartTokens(bundleID: String, user: String) async throws(GatewayStoreError) -> [PushToStartToken]
    func deletePushToStartToken(bundleID: String, token: DeviceToken) async throws(GatewayStoreError) -> Bool
    /// Stores the activity's update token at `now`, replacing the one before.
    func upsertActivityToken(
        bundleID: String, activityID: String, token: DeviceToken, environment: Environment, user: String?, now: Int
    ) async throws(GatewayStoreError) -> ActivityToken
    func activityToken(bundleID: String, activityID: String) async throws(GatewayStoreError) -> ActivityToken?
    func deleteActivityToken(bundleID: String, activityID: String) async throws(GatewayStoreError) -> Bool
    /// The app's activity tokens, whatever their status, by activity id (byte order): up to `limit`
    /// with ids after `cursor` (nil: from the first), and the cursor of the next page (the console's list).
    func activityTokens(bundleID: String, after cursor: String?, limit: Int) async throws(GatewayStoreError)
        -> ActivityTokenPage
    /// The app's push-to-start tokens, whatever their status, in registration order: up to `limit`
    /// after `cursor` (nil: from the first), and the cursor of the next page (the console's list).
    func pushToStartTokens(bundleID: String, after cursor: Int?, limit: Int) async throws(GatewayStoreError)
        -> PushToStartTokenPage
    /// Carries out `action` (from `PruneRule`) on the token of `kind` (device, activity or
    /// push-to-start) with this hex; true when a token changed status.
    func prune(_ action: PruneAction, bundleID: String, kind: Delivery.Kind, token: String)
        async throws(GatewayStoreError)
        -> Bool
}

/// API keys, kept as SHA-256 digests of their secrets.
public protocol APIKeyStore: Sendable {
    func insertAPIKey(_ key: APIKey, secretHash: [UInt8]) async throws(GatewayStoreError)
    /// Inserts `key` only if the store holds no key at all, atomically: of gateways starting together
    /// on one empty store, one makes the first admin key. False when a key was there already.
    func insertFirstAPIKey(_ key: APIKey, secretHash: [UInt8]) async throws(GatewayStoreError) -> Bool
    /// The key whose secret has this digest, unless revoked.
    func apiKey(secretHash: [UInt8]) async throws(GatewayStoreError) -> APIKey?
    /// Every key, revoked ones included, in creation order.
    func apiKeys() async throws(GatewayStoreError) -> [APIKey]
    /// False when no live key has this id.
    func revokeAPIKey(id: String, now: Int) async throws(GatewayStoreError) -> Bool
}

/// Notifications: created, expanded into delivery rows, counted, cancelled.
public protocol NotificationStore: Sendable {
    /// Records the notification under `id` (state `scheduled` when `sendAt` is after `now`, else
    /// `sending`) without expanding it. With an idempotency key already used for the app, returns
    /// that notification and records nothing.
    func createNotification(_ request: NotificationRequest, id: NotificationID, now: Int)
        async throws(GatewayStoreError)
        -> NotificationCreation
    func notification(id: NotificationID) async throws(GatewayStoreError) -> StoredNotification?
    /// The app's notifications, newest first: up to `limit` created before `cursor` (nil: the newest),
    /// and the cursor of the next page. A cursor is opaque: the `nextCursor` of the page before.
    func notifications(bundleID: String, before cursor: Int?, limit: Int) async throws(GatewayStoreError)
        -> NotificationPage
    /// Makes delivery rows for the next recipients of a `sending` notification, `chunkSize` per
    /// transaction, at most `maximumChunks` transactions. Each transaction records how far it got, so
    /// an expansion cut short (a crash, or the limit) resumes where it stopped and never makes a row
    /// twice. Memory is bounded by `chunkSize`, not by the number of recipients.
    func expandNotification(id: NotificationID, chunkSize: Int, maximumChunks: Int, now: Int)
        async throws(GatewayStoreError) -> ExpansionProgress
    /// Expands one chunk (at most `chunkSize` rows, one transaction) of a `sending` notification,
    /// as `expandNotification` with `maximumChunks: 1` does, and may claim the rows it made for
    /// `claimer` until `now + leaseMilliseconds` in that transaction, as `claimDeliveries` would: a
    /// fresh fan-out then needs no claim of its own. SQLite makes no row: it records the chunk
    /// (a cursor range) as claimed, and a delivery's row is made with its outcome. Rows it claims were made from recipients
    /// active in that transaction, so they need no inactive-token check before they are sent. Rows
    /// made but not claimed (the default implementation claims none) are due at `now` and
    /// `claimDeliveries` takes them.
    func expandAndClaim(id: NotificationID, chunkSize: Int, claimer: String, leaseMilliseconds: Int, now: Int)
        async throws(GatewayStoreError) -> ClaimedExpansion
    /// Moves `scheduled` notifications whose `sendAt` has come to `sending`; returns their ids. Each
    /// id is returned by one call only (PostgreSQL: to one process only).
    func startDueNotifications(now: Int, limit: Int) async throws(GatewayStoreError) -> [NotificationID]
    /// `sending` notifications not yet fully expanded (after a restart: the ones to resume).
    func notificationsToExpand(limit: Int) async throws(GatewayStoreError) -> [NotificationID]
    func counts(id: NotificationID) async throws(GatewayStoreError) -> NotificationCounts
    /// Cancels what is not yet sent: pending deliveries become `cancelled`, expansion stops, the
    /// notification is `cancelled`. A finished notification is returned unchanged.
    func cancelNotification(id: NotificationID, now: Int) async throws(GatewayStoreError) -> StoredNotification
}

/// The delivery queue: claimed in batches under a lease, outcomes recorded in batches.
public protocol DeliveryStore: Sendable {
    /// Claims up to `limit` due deliveries (pending, `nextAttemptAt <= now`) for `claimer` until
    /// `now + leaseMilliseconds`. A claimed row is not due again until its lease runs out; then any
    /// claimer may take it. Oldest due first. A store that claims expansion chunks
    /// (`expandAndClaim`) as one row returns, when no row is due, the members of a chunk whose lease
    /// ran out that have no outcome yet, with the apns-ids they had.
    func claimDeliveries(limit: Int, claimer: String, leaseMilliseconds: Int, now: Int) async throws(GatewayStoreError)
        -> DeliveryClaim
    /// Records outcomes in one transaction: success and final failure end a delivery (a failure
    /// applies the pruning rule to its token), a retryable one schedules the next attempt by
    /// `backoff` or, past its cap, fails. Outcomes for deliveries no longer pending are ignored.
    /// A notification whose deliveries are all done becomes `done`. Returns how many tokens the
    /// pruning rule changed. An outcome of a delivery a claim returned carries it
    /// (`DeliveryOutcome(_:result:)`): a store may keep no row for a claimed delivery until its
    /// outcome (SQLite's chunks), and makes the row from it.
    @discardableResult
    func recordOutcomes(_ outcomes: [DeliveryOutcome], backoff: DeliveryBackoff, now: Int)
        async throws(GatewayStoreError) -> Int
    /// Extends to `until` the lease of each of `deliveries` (as a claim returned them) that `claimer`
    /// still holds under the lease it was claimed with (their `claimedUntil`), so a batch still in
    /// flight is not claimed again when that lease runs out. Returns the ids of those renewed;
    /// record their outcomes with `claimedUntil` set to `until` (a store that checks the lease, as
    /// SQLite's chunks do, ignores an outcome under a lease it no longer holds). Deliveries claimed
    /// again by another, ended or cancelled are left alone.
    func renewClaims(_ deliveries: [Delivery], claimer: String, until: Int) async throws(GatewayStoreError)
        -> Set<Int>
    /// Deliveries still pending, due or not, claimed or not: the queue's depth. Costs a count over
    /// the pending rows; call it now and then, not per send.
    func pendingDeliveryCount() async throws(GatewayStoreError) -> Int
    /// Which of `tokens` (hex) of `kind` the app stores with a status other than active: tokens
    /// pruned since their deliveries were made, which are not sent to. Tokens the store does not
    /// know are not in the answer (they are sent, as expansion sends unknown listed tokens).
    func inactiveTokens(bundleID: String, kind: Delivery.Kind, tokens: [String]) async throws(GatewayStoreError)
        -> Set<String>
    /// The notification's deliveries after `cursor` (nil: from the first), `limit` at most.
    func deliveries(notificationID: NotificationID, after cursor: Int?, limit: Int) async throws(GatewayStoreError)
        -> DeliveryPage
    /// The app's deliveries to one recipient of `kind` (token hex, or a channel id), across its
    /// notifications, newest first: up to `limit` made before `cursor` (nil: the newest), and the
    /// cursor of the next page (a device's history, for the console).
    func deliveries(bundleID: String, kind: Delivery.Kind, recipient: String, before cursor: Int?, limit: Int)
        async throws(GatewayStoreError) -> DeliveryPage
}
