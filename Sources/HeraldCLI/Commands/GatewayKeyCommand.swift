import APNs
import Gateway
import HTTP2

/// `herald gateway key create|list|revoke`: the API keys in a data directory's store, or in the
/// PostgreSQL database of `--database`. Either takes turns with running gateways (SQLite's WAL and
/// busy timeout; PostgreSQL's transactions), so this works while they serve.
struct GatewayKeyCommand {
    let options: GatewayOptions
    let context: CommandContext

    func run() async -> Int32 {
        guard
            let store = GatewayKeyCommand.openStore(
                dataDirectory: options.dataDirectory, database: options.database, context: context)
        else { return ExitStatus.failure }
        do {
            return try await run(store)
        } catch {
            context.standardError("herald gateway: the store failed: \(error)\n")
            return ExitStatus.failure
        }
    }

    /// The database's store, or the data directory's (which must hold one already); nil after
    /// reporting why not, naming the flag.
    static func openStore(dataDirectory: String?, database: GatewayDatabase?, context: CommandContext)
        -> (any GatewayStore)?
    {
        if let database {
            do {
                return try database.openStore()
            } catch {
                context.standardError("herald gateway: --database: \(error)\n")
                return nil
            }
        }
        let directory = GatewayDataDirectory(path: dataDirectory ?? "")
        // A command on a mistyped directory must not make a new, empty gateway there.
        guard System.isReadable(directory.storePath) else {
            context.standardError(
                "herald gateway: --data-dir '\(directory.path)' holds no gateway store "
                    + "(\(SQLiteGatewayStore.fileName)); start 'herald gateway --data-dir \(directory.path)' first\n")
            return nil
        }
        do {
            return try directory.openStore()
        } catch {
            context.standardError("herald gateway: --data-dir: \(error)\n")
            return nil
        }
    }

    private func run(_ store: any GatewayStore) async throws(GatewayStoreError) -> Int32 {
        switch options.action {
        case .serve, .importDevices:
            return ExitStatus.usage
        case .createKey(let scopeName, let name, let bundleID):
            let scope = APIKey.Scope(rawValue: scopeName) ?? .send
            let (key, secret) = try await store.createAPIKey(
                name: name ?? scopeName, scope: scope, bundleID: bundleID, now: context.nowMilliseconds())
            context.standardOutput(secret + "\n")
            context.standardError(
                "herald gateway: created \(scope) key \(key.id) for \(bundleID ?? "every app"); "
                    + "the secret above is shown only this once\n")
            return ExitStatus.success
        case .listKeys(let json):
            let keys = try await store.apiKeys()
            if json {
                for key in keys { context.standardOutput(Self.json(key).encodedString + "\n") }
            } else {
                context.standardOutput(Self.table(keys))
            }
            return ExitStatus.success
        case .revokeKey(let id):
            guard try await store.revokeAPIKey(id: id, now: context.nowMilliseconds()) else {
                context.standardError("herald gateway: no key '\(id)' that is not revoked already; see 'key list'\n")
                return ExitStatus.failure
            }
            context.standardOutput("herald gateway: revoked \(id)\n")
            return ExitStatus.success
        }
    }

    /// `gateway-key` in docs/GATEWAY.md: never the secret (the store does not have it).
    static func json(_ key: APIKey) -> JSONValue {
        var object = JSONObject()
        object["id"] = .string(key.id)
        object["name"] = .string(key.name)
        object["scope"] = .string(key.scope.rawValue)
        object["app"] = key.bundleID.map(JSONValue.string) ?? .null
        object["created-at"] = .number(JSONNumber(key.createdAt))
        object["revoked-at"] = key.revokedAt.map { .number(JSONNumber($0)) } ?? .null
        return .object(object)
    }

    static func table(_ keys: [APIKey]) -> String {
        guard !keys.isEmpty else { return "no keys\n" }
        let rows =
            [["ID", "NAME", "SCOPE", "APP", "CREATED", "REVOKED"]]
            + keys.map { key in
                [
                    key.id, key.name, key.scope.rawValue, key.bundleID ?? "*",
                    utcTimestamp(milliseconds: key.createdAt),
                    key.revokedAt.map { utcTimestamp(milliseconds: $0) } ?? "-",
                ]
            }
        let widths = (0..<6).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, text in
                column == 5 ? text : text + String(repeating: " ", count: widths[column] - text.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}
