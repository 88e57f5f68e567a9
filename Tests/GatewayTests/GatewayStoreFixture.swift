import APNs
import Foundation
import Gateway
import HeraldTestSupport
import Testing

/// Which `GatewayStore` a shared test runs against.
enum StoreKind: String, CustomTestStringConvertible, Sendable {
    case memory, sqlite, postgres
    /// The in-memory store without its own `expandAndClaim` (the protocol's default: rows made
    /// unclaimed), as a store that does not implement the fused path behaves.
    case unfused

    /// Every store: the shared suites run against each.
    static let allCases: [StoreKind] = [.memory, .sqlite, .postgres]

    var testDescription: String { rawValue }
}

/// A store of one kind in a fresh directory (SQLite) or database (PostgreSQL, on the test server),
/// and the same store "after a restart": the same object in memory, a new connection to the same
/// file or database otherwise.
struct GatewayStoreFixture {
    let kind: StoreKind
    let directory: String
    /// The PostgreSQL database's connection string ("" for the other kinds).
    let conninfo: String
    let store: any GatewayStore

    init(_ kind: StoreKind) throws {
        self.kind = kind
        directory =
            FileManager.default.temporaryDirectory.appendingPathComponent("herald-gateway-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        conninfo = kind == .postgres ? try PostgresTestServer.makeDatabase() : ""
        store = try Self.open(kind, directory: directory, conninfo: conninfo, previous: nil)
    }

    /// The store as a restarted gateway (or a second process) would open it.
    func reopened() throws -> any GatewayStore {
        try Self.open(kind, directory: directory, conninfo: conninfo, previous: store)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private static func open(_ kind: StoreKind, directory: String, conninfo: String, previous: (any GatewayStore)?)
        throws -> any GatewayStore
    {
        switch kind {
        case .memory: previous ?? InMemoryGatewayStore()
        case .unfused: previous ?? HeldDeviceStore(released: true)
        case .sqlite: try SQLiteGatewayStore(path: directory + "/" + SQLiteGatewayStore.fileName)
        case .postgres: try PostgresGatewayStore(conninfo: conninfo)
        }
    }
}

/// The injected clock's readings: milliseconds since 1970, from 2026-01-01.
enum Clock {
    static let start = 1_767_225_600_000
}

let bundleID = "com.example.app"

/// Token number `n` (64 hex digits).
func token(_ n: Int) throws -> DeviceToken {
    try DeviceToken(hex: String(repeating: "0", count: 64 - String(n, radix: 16).count) + String(n, radix: 16))
}

func registration(
    _ n: Int, environment: Environment = .production, user: String? = nil, tags: [String] = []
) throws -> DeviceRegistration {
    DeviceRegistration(bundleID: bundleID, token: try token(n), environment: environment, user: user, tags: tags)
}

func request(
    to recipients: NotificationRequest.Recipients, pushType: PushType = .alert, sendAt: Int? = nil, key: String? = nil
) -> NotificationRequest {
    NotificationRequest(
        bundleID: bundleID, to: recipients, pushType: pushType, payload: Array(#"{"aps":{"alert":"hi"}}"#.utf8),
        sendAt: sendAt, idempotencyKey: key)
}

extension NotificationStore {
    /// Creates and fully expands a notification; returns its id.
    func send(_ request: NotificationRequest, id: String = UUID().uuidString.lowercased(), now: Int = Clock.start)
        async throws -> NotificationID
    {
        let creation = try await createNotification(request, id: id, now: now)
        try await expandFully(id: creation.notification.id, chunkSize: 100, now: now)
        return creation.notification.id
    }
}

extension DeliveryStore {
    /// Every delivery of the notification, page by page.
    func allDeliveries(_ id: NotificationID) async throws -> [Delivery] {
        var all: [Delivery] = []
        var cursor: Int?
        repeat {
            let page = try await deliveries(notificationID: id, after: cursor, limit: 1_000)
            all += page.deliveries
            cursor = page.nextCursor
        } while cursor != nil
        return all
    }
}
