/// One positional argument a command accepts, such as `FILE`.
public struct PositionalSpec: Equatable, Sendable {
    /// The placeholder shown in usage and errors: `"FILE"`.
    public var name: String
    /// One line for the help text.
    public var help: String
    /// Whether the argument may be left out. Optional positionals follow the required ones.
    public var isOptional: Bool
    /// Whether the argument takes every remaining positional (`PATH...`); only the last may.
    public var isVariadic: Bool
    /// The words it takes when it names an action (`create`, `list`, ...), for shell completion;
    /// empty when it takes anything (a file, a token).
    public var choices: [String]

    public init(
        _ name: String, help: String, isOptional: Bool = false, isVariadic: Bool = false, choices: [String] = []
    ) {
        self.name = name
        self.help = help
        self.isOptional = isOptional
        self.isVariadic = isVariadic
        self.choices = choices
    }
}
