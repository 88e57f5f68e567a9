/// What one command accepts, and the words that explain it in help.
///
/// Every command also accepts `-h`/`--help`; the parser and the help renderer add it, so a spec never
/// declares it.
public struct CommandSpec: Equatable, Sendable {
    /// The word that selects the command: `"lint"`.
    public var name: String
    /// One line for the usage list and the help header.
    public var summary: String
    public var options: [OptionSpec]
    public var positionals: [PositionalSpec]
    /// Free text shown after the options (exit codes, defaults, caveats); `nil` for none.
    public var discussion: String?
    /// Complete command lines shown at the end of help.
    public var examples: [String]

    public init(
        name: String,
        summary: String,
        options: [OptionSpec] = [],
        positionals: [PositionalSpec] = [],
        discussion: String? = nil,
        examples: [String] = []
    ) {
        self.name = name
        self.summary = summary
        self.options = options
        self.positionals = positionals
        self.discussion = discussion
        self.examples = examples
    }

    /// The option with this long name, if the command has one.
    public func option(named name: String) -> OptionSpec? {
        options.first { $0.name == name }
    }

    /// The option with this one-letter alias, if the command has one.
    public func option(short: Character) -> OptionSpec? {
        options.first { $0.short == short }
    }
}
