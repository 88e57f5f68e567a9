import APNs

/// An app the gateway serves: its bundle id (the topic of its alerts) and the environments it has
/// credentials for. A device says which environment its token is from; `defaultEnvironment` is
/// used when it does not.
public struct App: Sendable, Hashable {
    public let bundleID: String
    /// Never empty.
    public let environments: Set<Environment>

    /// Throws when the bundle id is not one APNs accepts or no environment is given.
    public init(bundleID: String, environments: Set<Environment>) throws(FieldError) {
        if let problem = Topic.bundleIDProblem(bundleID) {
            throw FieldError(field: "bundle-id", message: problem)
        }
        guard !environments.isEmpty else {
            throw FieldError(field: "environments", message: "is empty; configure sandbox, production or both")
        }
        self.bundleID = bundleID
        self.environments = environments
    }

    /// Production when configured (what shipped apps use), else sandbox.
    public var defaultEnvironment: Environment { environments.contains(.production) ? .production : .sandbox }
}
