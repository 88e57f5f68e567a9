import Emulator
import Foundation
import Testing

/// Which `EmulatorStore` a shared test runs against.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case memory, sqlite

    var testDescription: String { rawValue }
}

/// A store of one kind in a fresh directory, and the same store "after a restart": the same
/// object in memory, a new connection to the same file for SQLite.
struct StoreFixture {
    let kind: StoreKind
    let directory: String
    let store: any EmulatorStore

    init(_ kind: StoreKind) throws {
        self.kind = kind
        directory =
            FileManager.default.temporaryDirectory.appendingPathComponent("herald-store-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        store = try Self.open(kind, directory: directory, previous: nil)
    }

    var path: String { directory + "/" + SQLiteEmulatorStore.fileName }

    /// The store as a restarted emulator would open it.
    func reopened() throws -> any EmulatorStore {
        try Self.open(kind, directory: directory, previous: store)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private static func open(_ kind: StoreKind, directory: String, previous: (any EmulatorStore)?) throws
        -> any EmulatorStore
    {
        switch kind {
        case .memory: return previous ?? InMemoryEmulatorStore()
        case .sqlite: return try SQLiteEmulatorStore(path: directory + "/" + SQLiteEmulatorStore.fileName)
        }
    }
}

extension Delivery {
    /// A delivery numbered `n`, every field set (channel and fault on odd numbers).
    static func numbered(_ n: Int) -> Delivery {
        Delivery(
            receivedAt: 1_767_225_600_000 + n, token: String(format: "%064x", n), topic: "com.example.app",
            pushType: "alert", priority: n % 2 == 0 ? 10 : nil, apnsID: "id-\(n)",
            uniqueID: n % 3 == 0 ? nil : "u-\(n)",
            status: n % 5 == 0 ? 400 : 200, reason: n % 5 == 0 ? "BadDeviceToken" : nil,
            payload: Array("{\"n\":\(n)}".utf8), channel: n % 2 == 1 ? "channel-\(n)" : nil,
            fault: n % 7 == 0 ? "respond" : nil)
    }
}
