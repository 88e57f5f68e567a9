// `herald [--help | --version | COMMAND [ARGUMENTS]]`.
//
// Before the command word only `-h`/`--help` (same as `herald help ...`) and `--version` (same as
// `herald version ...`) are accepted. Everything after the command word is parsed against that
// command's `CommandSpec`; `-h`/`--help` anywhere among it asks for that command's help.

/// Turns the arguments (without argv[0]) into the command to run. Pure: reads no files or environment.
public func parseCommandLine(_ arguments: [String], environment: [String: String] = [:]) throws(UsageError) -> Command {
    guard let first = arguments.first else { return .help(topic: nil) }
    let command: HeraldCommand
    switch first {
    case "-h", "--help":
        command = try heraldCommand(named: CommandSpec.help.name)
    case "--version":
        command = try heraldCommand(named: CommandSpec.version.name)
    case let option where option.hasPrefix("-") && option != "-":
        let name = String(option.prefix { $0 != "=" })
        if name == "--help" || name == "-h" || name == "--version" {
            throw .flagWithValue(name == "--version" ? name : "--help")
        }
        throw .unknownOption(name, suggestion: closestMatch(to: name, among: ["help", "version"]).map { "--" + $0 })
    default:
        command = try heraldCommand(named: first)
    }
    let parsed = try parse(Array(arguments.dropFirst()), as: command.spec, environment: environment)
    if parsed.isHelpRequested { return .help(topic: command.spec.name) }
    return try command.make(parsed)
}

/// The help for `topic` (a command name), or Herald's overview when `topic` is `nil` or unknown.
public func helpText(forTopic topic: String?) -> String {
    if let topic, let command = heraldCommandTable.first(where: { $0.spec.name == topic }) {
        return helpText(for: command.spec)
    }
    let commandRows = CommandSpec.heraldCommands.map { (label: $0.name, help: $0.summary) }
    let optionRows = [
        (label: "-h, --help", help: "Show this help."),
        (label: "    --version", help: "Print Herald's version."),
    ]
    return """
        usage: herald COMMAND [options]

        Herald \(heraldVersion): Apple Push Notifications for Linux servers.

        Commands:
        \(columns(commandRows))

        Options:
        \(columns(optionRows))

        Run 'herald help COMMAND' or 'herald COMMAND --help' for a command's options.

        """
}
