/// One `--name` option a command accepts: a boolean flag, or an option that takes a value.
public struct OptionSpec: Equatable, Sendable {
    /// The long name without dashes: `"topic"` for `--topic`.
    public var name: String
    /// An optional one-letter alias: `"o"` for `-o`.
    public var short: Character?
    /// The placeholder shown in help (`"TOPIC"`); `nil` makes the option a boolean flag.
    public var valueName: String?
    /// One line for the help text.
    public var help: String
    /// Whether the option may be given more than once; values are kept in order.
    public var isRepeatable: Bool
    /// Whether parsing fails when the option is absent.
    public var isRequired: Bool
    /// Whether the value is a secret: errors then never echo it.
    public var isSecret: Bool
    /// An environment variable that gives the value when the option is absent (`HERALD_KEY_ID`).
    public var environmentVariable: String?
    /// For an old spelling kept working: the long name of the option it stands for. Such an alias
    /// is accepted, stored under that name, and left out of help, suggestions and completions.
    public var aliasOf: String?

    public init(
        _ name: String,
        short: Character? = nil,
        valueName: String? = nil,
        help: String,
        isRepeatable: Bool = false,
        isRequired: Bool = false,
        isSecret: Bool = false,
        environmentVariable: String? = nil
    ) {
        self.name = name
        self.short = short
        self.valueName = valueName
        self.help = help
        self.isRepeatable = isRepeatable
        self.isRequired = isRequired
        self.isSecret = isSecret
        self.environmentVariable = environmentVariable
    }

    /// An old name of `option` (`--bundle` for `--topic`): accepted, never shown.
    public static func hiddenAlias(_ name: String, of option: OptionSpec) -> OptionSpec {
        var alias = option
        alias.name = name
        alias.short = nil
        alias.isRequired = false
        alias.environmentVariable = nil
        alias.aliasOf = option.name
        return alias
    }

    /// Whether the option is shown (in help, suggestions, completions): not a hidden alias.
    public var isShown: Bool { aliasOf == nil }

    /// The name its value is stored under: its own, or the option's it is an alias of.
    public var canonicalName: String { aliasOf ?? name }

    /// Whether the option is a boolean flag (takes no value).
    public var isFlag: Bool { valueName == nil }

    /// The spelling used in messages: `--topic`.
    public var displayName: String { "--" + name }
}
