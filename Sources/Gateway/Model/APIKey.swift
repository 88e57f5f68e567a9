import APNs
import Keys

/// An API key's record. The secret itself is never stored: only its SHA-256, so a copy of the
/// database does not hand out keys. The secret is shown once, when the key is made.
public struct APIKey: Sendable, Hashable {
    /// What a key may do.
    public enum Scope: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// Everything, every app's keys included.
        case admin
        /// Send notifications and manage devices.
        case send
        /// Register and unregister devices only: the key an app may embed.
        case register

        public var description: String { rawValue }
    }

    /// Public, unique; safe to log and to name in `key revoke`.
    public var id: String
    public var name: String
    public var scope: Scope
    /// The one app the key serves; nil for all apps.
    public var bundleID: String?
    public var createdAt: Int
    /// When the key was revoked; a revoked key verifies no more.
    public var revokedAt: Int?

    public init(id: String, name: String, scope: Scope, bundleID: String?, createdAt: Int, revokedAt: Int? = nil) {
        self.id = id
        self.name = name
        self.scope = scope
        self.bundleID = bundleID
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }

    /// The digest stored for `secret`.
    public static func hash(secret: String) -> [UInt8] { SHA256.hash(Array(secret.utf8)) }

    /// A new secret: `hk_` and 64 hex digits (256 random bits from the system generator).
    public static func newSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        let words = (0..<4).map { _ in generator.next() as UInt64 }
        return "hk_" + Hex.encode(words.flatMap { word in (0..<8).map { UInt8(truncatingIfNeeded: word >> ($0 * 8)) } })
    }

    /// What inserting a key whose id (or secret) is taken throws.
    static func existsError(_ id: String) -> FieldError {
        FieldError(field: "id", message: "a key '\(id)' (or one with the same secret) exists already")
    }

    /// A new public id: `key_` and 16 hex digits.
    public static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        let word: UInt64 = generator.next()
        return "key_" + Hex.encode((0..<8).map { UInt8(truncatingIfNeeded: word >> ($0 * 8)) })
    }
}
