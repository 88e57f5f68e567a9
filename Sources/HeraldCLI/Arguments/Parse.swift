// The generic argument parser: one pass, left to right, first problem wins.
//
// Accepted forms: `--name value`, `--name=value`, `-x value`, `-x=value`, flags `--name` / `-x`.
// A lone `-` is a positional (standard input); `--` ends options and everything after it is
// positional. `-h` or `--help` anywhere before `--` makes the result a help request and nothing else
// is checked, so `herald jwt --help` works without the required options.
//
// A value is taken from the next argument unless that argument is itself an option (`--anything`,
// `--`, or `-x` naming a known short option), so `--key-id --team-id T` reports the missing value
// instead of swallowing `--team-id`. Values that look like options can be written `--name=--value`.

/// Parses one command's arguments (everything after the command word) against its spec. An option
/// that is absent takes its value from `environment` when its spec names a variable there.
public func parse(
    _ arguments: [String], as spec: CommandSpec, environment: [String: String] = [:]
) throws(UsageError) -> ParsedArguments {
    if arguments.prefix(while: { $0 != "--" }).contains(where: isHelpOption) {
        return ParsedArguments(isHelpRequested: true)
    }
    var result = ParsedArguments()
    var index = arguments.startIndex
    var optionsEnded = false
    while index < arguments.endIndex {
        let argument = arguments[index]
        index += 1
        if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
            result.positionals.append(argument)
            continue
        }
        if argument == "--" {
            optionsEnded = true
            continue
        }
        let (name, inlineValue) = splitInlineValue(argument)
        let option = try resolveOption(name, in: spec)
        if let valueName = option.valueName {
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.endIndex, !looksLikeOption(arguments[index], in: spec) {
                value = arguments[index]
                index += 1
            } else {
                throw .missingValue(option: option.displayName, valueName: valueName)
            }
            if result.values[option.canonicalName] != nil, !option.isRepeatable {
                throw .duplicateOption(option.displayName)
            }
            result.values[option.canonicalName, default: []].append(value)
        } else {
            if inlineValue != nil { throw .flagWithValue(option.displayName) }
            if result.flags.contains(option.canonicalName), !option.isRepeatable {
                throw .duplicateOption(option.displayName)
            }
            result.flags.insert(option.canonicalName)
        }
    }
    for option in spec.options where option.isShown && option.valueName != nil && result.values[option.name] == nil {
        if let variable = option.environmentVariable, let value = environment[variable], !value.isEmpty {
            result.values[option.name] = [value]
            result.fromEnvironment.insert(option.name)
        }
    }
    try checkCompleteness(result, against: spec)
    return result
}

func isHelpOption(_ argument: String) -> Bool {
    argument == "-h" || argument == "--help"
}

/// `--name=value` → (`--name`, `value`); anything without `=` → (argument, nil).
private func splitInlineValue(_ argument: String) -> (name: String, value: String?) {
    guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
    return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
}

/// The spec of the option spelled `name` (`--topic` or `-o`); unknown names throw with a suggestion.
private func resolveOption(_ name: String, in spec: CommandSpec) throws(UsageError) -> OptionSpec {
    if name.hasPrefix("--"), let option = spec.option(named: String(name.dropFirst(2))) {
        return option
    }
    if name.count == 2, let letter = name.last, let option = spec.option(short: letter) {
        return option
    }
    if name == "--help" || name == "-h" {
        // Only reachable as `--help=value`: a bare `--help` was handled before the loop.
        throw .flagWithValue("--help")
    }
    let candidates = spec.options.filter(\.isShown).map(\.name) + ["help"]
    throw .unknownOption(name, suggestion: closestMatch(to: name, among: candidates).map { "--" + $0 })
}

private func looksLikeOption(_ argument: String, in spec: CommandSpec) -> Bool {
    if argument.hasPrefix("--") { return true }
    guard argument.count == 2, argument.first == "-", let letter = argument.last else { return false }
    return letter == "h" || spec.option(short: letter) != nil
}

private func checkCompleteness(_ result: ParsedArguments, against spec: CommandSpec) throws(UsageError) {
    if result.positionals.count > spec.positionals.count, spec.positionals.last?.isVariadic != true {
        throw .unexpectedArgument(result.positionals[spec.positionals.count])
    }
    for (index, positional) in spec.positionals.enumerated()
    where !positional.isOptional && index >= result.positionals.count {
        throw .missingArgument(positional.name)
    }
    for option in spec.options where option.isRequired && result.values[option.name] == nil {
        if let variable = option.environmentVariable {
            throw .missingOption("\(option.displayName) (or \(variable))")
        }
        throw .missingOption(option.displayName)
    }
}
