// `herald gateway --database URL` (or HERALD_DATABASE_URL): the gateway's state in PostgreSQL, which
// several gateway processes may share, instead of DIR/gateway.sqlite. The value is checked for its
// form before anything connects, and every message shows it with its password hidden.
import APNs

/// A PostgreSQL database for the gateway's state: a `postgres://` / `postgresql://` URL, or a libpq
/// connection string (`host=... dbname=...`).
///
/// Thread-safety: a value type; `Sendable`.
public struct GatewayDatabase: Sendable, Equatable {
    /// What libpq is given (it may hold a password: show ``redacted`` instead).
    public let conninfo: String

    /// Checks the form of `text`: a URL with the scheme `postgres` or `postgresql`, or `key=value`
    /// pairs. Whether the server is there is learned by ``openStore()``.
    public init(_ text: String, field: String = "--database") throws(FieldError) {
        let value = text.trimmingPrefix(while: \.isWhitespace)
        guard !value.isEmpty else {
            throw FieldError(field: field, message: "is empty; give a URL such as postgres://user@host/db")
        }
        if let range = value.firstRange(of: "://") {
            let scheme = value[..<range.lowerBound].lowercased()
            guard scheme == "postgres" || scheme == "postgresql" else {
                throw FieldError(
                    field: field,
                    message: "'\(Self.redact(String(value)))' has the scheme '\(scheme)'; "
                        + "it must be postgres:// or postgresql://, e.g. postgres://user@host/db")
            }
        } else if !value.contains("=") {
            throw FieldError(
                field: field,
                message: "'\(Self.redact(String(value)))' is neither a URL nor a connection string; "
                    + "give postgres://user@host/db or 'host=HOST dbname=DB user=USER'")
        }
        conninfo = String(value)
    }

    /// The value with any password replaced by `***`, for messages.
    public var redacted: String { Self.redact(conninfo) }

    /// Connects and brings the schema up to date; the error names the database (password hidden)
    /// and says why (unreachable, a refused login, a newer schema).
    public func openStore() throws(GatewaySetupError) -> PostgresGatewayStore {
        do {
            return try PostgresGatewayStore(conninfo: conninfo)
        } catch {
            throw GatewaySetupError("cannot open the database \(redacted): \(error)")
        }
    }

    /// Hides the password of a URL (`user:secret@`, `?password=`) or of a `password=` pair.
    static func redact(_ text: String) -> String {
        guard let scheme = text.firstRange(of: "://") else {
            return text.split(separator: " ", omittingEmptySubsequences: false).map { pair in
                pair.hasPrefix("password=") ? "password=***" : String(pair)
            }.joined(separator: " ")
        }
        let rest = text[scheme.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        var redacted = text
        if let at = rest[..<authorityEnd].lastIndex(of: "@"), let colon = rest[..<at].firstIndex(of: ":") {
            redacted = String(text[...colon]) + "***" + String(text[at...])
        }
        guard let question = redacted.firstIndex(of: "?") else { return redacted }
        let query = redacted[redacted.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false)
        return String(redacted[...question])
            + query.map { $0.hasPrefix("password=") ? "password=***" : String($0) }.joined(separator: "&")
    }
}
