import Foundation
import Gateway
import Testing

/// The data directory's first start: an admin key written once, mode 0600, verifiable.
@Suite(.timeLimit(.minutes(1)))
struct GatewayDataDirectoryTests {
    static func scratch() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("herald-gwdir-\(UUID().uuidString)").path
    }

    @Test func theFirstStartWritesAnAdminKeyOnce() async throws {
        let root = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let directory = GatewayDataDirectory(path: root + "/data")
        let store = try directory.openStore()
        let made = try #require(try await directory.createFirstAdminKey(in: store, now: Clock.start))
        #expect(made.scope == .admin && made.bundleID == nil)
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.adminKeyPath)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let directoryAttributes = try FileManager.default.attributesOfItem(atPath: directory.path)
        #expect((directoryAttributes[.posixPermissions] as? Int) == 0o700)
        let secret = try String(contentsOfFile: directory.adminKeyPath, encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try await store.verifyAPIKey(secret: secret)?.id == made.id)

        // A restart: the store has its key, nothing is made or written again.
        let reopened = try directory.openStore()
        #expect(try await directory.createFirstAdminKey(in: reopened, now: Clock.start + 1) == nil)
        #expect(try await reopened.apiKeys().count == 1)
        #expect(try String(contentsOfFile: directory.adminKeyPath, encoding: .utf8).hasPrefix(secret))
    }

    @Test func anExistingKeyFileIsNeverOverwrittenAndNoKeyIsStored() async throws {
        let root = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let directory = GatewayDataDirectory(path: root)
        let store = try directory.openStore()
        try Data("hk_someone-elses\n".utf8).write(to: URL(fileURLWithPath: directory.adminKeyPath))
        await #expect {
            try await directory.createFirstAdminKey(in: store, now: Clock.start)
        } throws: { error in
            "\(error)".contains("admin-api-key") && "\(error)".contains("exists")
        }
        #expect(try await store.apiKeys().isEmpty)
        #expect(try String(contentsOfFile: directory.adminKeyPath, encoding: .utf8) == "hk_someone-elses\n")
    }

    @Test func aDataDirectoryThatCannotBeMadeIsNamed() throws {
        #expect {
            try GatewayDataDirectory(path: "/proc/herald-gateway-test").openStore()
        } throws: { error in
            "\(error)".contains("/proc/herald-gateway-test")
        }
    }
}
