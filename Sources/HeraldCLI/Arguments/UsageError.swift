/// A command line Herald cannot run: one case per problem. The CLI prints it and exits with status 2.
///
/// Messages name options and commands but never the value given to an option, except in
/// `invalidValue` for options that are not secret (see `UsageError.invalidValue(of:value:rule:)`).
public enum UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An option the command does not have, with the closest valid spelling if one is near.
    case unknownOption(String, suggestion: String?)
    /// A command Herald does not have, with the closest command if one is near.
    case unknownCommand(String, suggestion: String?)
    /// An option that takes a value came last, or was followed by another option.
    case missingValue(option: String, valueName: String)
    /// A non-repeatable option was given more than once.
    case duplicateOption(String)
    /// A boolean flag was written with `=value`.
    case flagWithValue(String)
    /// A required option was absent.
    case missingOption(String)
    /// A required positional argument was absent.
    case missingArgument(String)
    /// More positional arguments than the command takes; carries the first extra one.
    case unexpectedArgument(String)
    /// A value that breaks its option's rule; `value` is `nil` when the option is secret.
    case invalidValue(option: String, value: String?, rule: String)

    public var description: String {
        switch self {
        case .unknownOption(let name, let suggestion):
            return "unknown option '\(name)'" + Self.hint(suggestion)
        case .unknownCommand(let name, let suggestion):
            return "unknown command '\(name)'" + Self.hint(suggestion)
        case .missingValue(let option, let valueName):
            return "\(option) needs a value (\(valueName))"
        case .duplicateOption(let option):
            return "\(option) given twice"
        case .flagWithValue(let option):
            return "\(option) is a flag and takes no value"
        case .missingOption(let option):
            return "missing required option \(option)"
        case .missingArgument(let name):
            return "missing argument \(name)"
        case .unexpectedArgument(let argument):
            return "unexpected argument '\(argument)'"
        case .invalidValue(let option, let value?, let rule):
            return "\(option) \(rule) (got '\(value)')"
        case .invalidValue(let option, nil, let rule):
            return "\(option) \(rule)"
        }
    }

    /// An `invalidValue` error for `option` that drops the value when the option is secret.
    public static func invalidValue(of option: OptionSpec, value: String, rule: String) -> UsageError {
        .invalidValue(option: option.displayName, value: option.isSecret ? nil : value, rule: rule)
    }

    private static func hint(_ suggestion: String?) -> String {
        suggestion.map { " (did you mean '\($0)'?)" } ?? ""
    }
}
