import Foundation
import Gateway

/// A new directory under the system's temporary one for a test's SQLite gateway store; the test
/// removes it (`defer { scratch.remove() }`).
struct ScratchDirectory {
    let path: String

    init(_ prefix: String) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Where a gateway store in this directory keeps its database.
    var storePath: String { path + "/" + SQLiteGatewayStore.fileName }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
