/// The result of parsing one command's arguments against its `CommandSpec`.
///
/// Option keys are long names without dashes. The parser has already checked names, arity, repetition
/// and required options; turning the strings into typed values is the caller's job.
public struct ParsedArguments: Equatable, Sendable {
    /// Boolean flags that were given.
    public var flags: Set<String>
    /// Values by option name, in the order given on the command line.
    public var values: [String: [String]]
    /// Positional arguments in order; a lone `-` (standard input) is kept as is.
    public var positionals: [String]
    /// Whether `-h` or `--help` appeared before any `--`; nothing else was checked if so.
    public var isHelpRequested: Bool
    /// Options whose value came from an environment variable, not the command line: a flag given
    /// on the command line that conflicts with one of these wins, and the variable is ignored.
    public var fromEnvironment: Set<String>

    public init(
        flags: Set<String> = [],
        values: [String: [String]] = [:],
        positionals: [String] = [],
        isHelpRequested: Bool = false,
        fromEnvironment: Set<String> = []
    ) {
        self.flags = flags
        self.values = values
        self.positionals = positionals
        self.isHelpRequested = isHelpRequested
        self.fromEnvironment = fromEnvironment
    }

    /// The value of `--name` only when the command line gave it (not an environment variable).
    public func commandLineValue(_ name: String) -> String? {
        fromEnvironment.contains(name) ? nil : value(name)
    }

    /// Whether the flag `--name` was given.
    public func flag(_ name: String) -> Bool {
        flags.contains(name)
    }

    /// The value of `--name`, or `nil` if absent; for a repeatable option, the last one given.
    public func value(_ name: String) -> String? {
        values[name]?.last
    }

    /// Every value of `--name`, in order.
    public func values(_ name: String) -> [String] {
        values[name] ?? []
    }

    /// The value of a required option; throws `missingOption` if a caller asks for one that is absent.
    public func requiredValue(_ name: String) throws(UsageError) -> String {
        guard let value = value(name) else { throw .missingOption("--" + name) }
        return value
    }

    /// The positional at `index`; throws `missingArgument(name)` if there are fewer.
    public func positional(_ index: Int, named name: String) throws(UsageError) -> String {
        guard positionals.indices.contains(index) else { throw .missingArgument(name) }
        return positionals[index]
    }
}
