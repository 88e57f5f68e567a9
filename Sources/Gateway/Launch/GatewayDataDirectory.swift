// What `herald gateway --data-dir DIR` keeps on disk, as a library so the command stays thin:
//
//   DIR/                  made on first start, mode 0700 (it holds a key)
//   DIR/gateway.sqlite    the store (SQLiteGatewayStore.fileName, with its WAL files); not used
//                         when the state is in PostgreSQL (`--database`, GatewayDatabase)
//   DIR/admin-api-key     the first admin key's secret, mode 0600, written once when the store has
//                         no key at all; the store itself keeps only the key's digest
import APNs
import Glibc

/// The gateway's data directory: its store and its first admin key.
///
/// Thread-safety: a value type; `Sendable`.
public struct GatewayDataDirectory: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    public var storePath: String { path + "/" + SQLiteGatewayStore.fileName }
    public var adminKeyPath: String { path + "/admin-api-key" }

    /// Creates the directory (mode 0700) unless it exists; its parent must exist.
    public func create() throws(GatewaySetupError) {
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw GatewaySetupError("cannot create the data directory '\(path)': \(String(cString: strerror(errno)))")
        }
    }

    /// Creates the directory if needed and opens (or creates) the store in it.
    public func openStore() throws(GatewaySetupError) -> SQLiteGatewayStore {
        try create()
        do {
            return try SQLiteGatewayStore(path: storePath)
        } catch {
            throw GatewaySetupError("cannot open the gateway's store '\(storePath)': \(error)")
        }
    }

    /// On a store with no key yet (a first start): makes an admin key, writes its secret to
    /// ``adminKeyPath`` and returns the key; nil when the store has keys already. The file is
    /// written before the key is stored, so a failure leaves no key whose secret nobody has; an
    /// existing file is never overwritten (it may be a key still in use elsewhere).
    public func createFirstAdminKey(in store: any APIKeyStore, now: Int) async throws(GatewaySetupError) -> APIKey? {
        do {
            guard try await store.apiKeys().isEmpty else { return nil }
        } catch {
            throw GatewaySetupError("cannot read the API keys: \(error)")
        }
        let secret = APIKey.newSecret()
        let key = APIKey(id: APIKey.newID(), name: "admin", scope: .admin, bundleID: nil, createdAt: now)
        try writeNewFile(adminKeyPath, Array((secret + "\n").utf8))
        do {
            // Another gateway on the same database may have made the first key since the check above.
            guard try await store.insertFirstAPIKey(key, secretHash: APIKey.hash(secret: secret)) else {
                unlink(adminKeyPath)
                return nil
            }
        } catch {
            unlink(adminKeyPath)
            throw GatewaySetupError("cannot store the admin key: \(error)")
        }
        return key
    }

    /// Creates `path` (mode 0600, failing if it exists) and writes `bytes` to it.
    private func writeNewFile(_ path: String, _ bytes: [UInt8]) throws(GatewaySetupError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let reason =
                errno == EEXIST
                ? "it exists already; move it away or create a key with `herald gateway key create`"
                : String(cString: strerror(errno))
            throw GatewaySetupError("cannot write '\(path)': \(reason)")
        }
        var written = 0
        var failure: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let count = write(fd, buffer.baseAddress?.advanced(by: written), buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                written += count
            }
        }
        if failure == 0 && fsync(fd) != 0 { failure = errno }
        close(fd)
        guard failure == 0 else {
            unlink(path)
            throw GatewaySetupError("cannot write '\(path)': \(String(cString: strerror(failure)))")
        }
    }
}

/// Why the gateway could not set up its data directory: a message that names the path.
public struct GatewaySetupError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
