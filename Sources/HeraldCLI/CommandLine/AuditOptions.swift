/// The command line of `herald audit`.
public struct AuditOptions: Equatable, Sendable {
    /// Swift files and directories.
    public var paths: [String]
    public var infoPlist: String?
    public var entitlements: String?
    public var json: Bool

    public init(paths: [String], infoPlist: String? = nil, entitlements: String? = nil, json: Bool = false) {
        self.paths = paths
        self.infoPlist = infoPlist
        self.entitlements = entitlements
        self.json = json
    }

    /// Reads the options from arguments parsed against `CommandSpec.audit`.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        guard !parsed.positionals.isEmpty else { throw .missingArgument("PATH") }
        self.init(
            paths: parsed.positionals, infoPlist: parsed.value("info-plist"),
            entitlements: parsed.value("entitlements"), json: parsed.flag("json"))
    }
}
