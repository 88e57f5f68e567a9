// Herald's commands: each spec paired with the function that turns its parsed arguments into a
// `Command`. The order here is the order of the top-level help.

extension CommandSpec {
    /// `herald help [COMMAND]`.
    public static let help = CommandSpec(
        name: "help",
        summary: "Show Herald's help, or one command's.",
        positionals: [PositionalSpec("COMMAND", help: "The command to explain.", isOptional: true)],
        examples: ["herald help lint"]
    )

    /// `herald completion bash|zsh|fish`.
    public static let completion = CommandSpec(
        name: "completion",
        summary: "Print a shell completion script (bash, zsh or fish).",
        positionals: [PositionalSpec("SHELL", help: "bash, zsh or fish.", choices: ["bash", "zsh", "fish"])],
        discussion: """
            The script completes every command and option (and file names for their values), generated \
            from the same specs as this help. Load it in the running shell, or from its startup file:
            """,
        examples: [
            "source <(herald completion bash)        # in ~/.bashrc",
            "source <(herald completion zsh)         # in ~/.zshrc",
            "herald completion fish | source         # in ~/.config/fish/config.fish",
        ]
    )

    /// `herald version`, also spelled `herald --version`.
    public static let version = CommandSpec(name: "version", summary: "Print Herald's version.")

    /// Every command, in the order the top-level help lists them.
    public static var heraldCommands: [CommandSpec] { heraldCommandTable.map(\.spec) }
}

/// One command: what it accepts and how its parsed arguments become a `Command`.
struct HeraldCommand: Sendable {
    let spec: CommandSpec
    let make: @Sendable (ParsedArguments) throws(UsageError) -> Command
}

let heraldCommandTable: [HeraldCommand] = [
    HeraldCommand(spec: .send) { parsed throws(UsageError) in .send(try SendOptions(parsed)) },
    HeraldCommand(spec: .channels) { parsed throws(UsageError) in .channels(try ChannelsOptions(parsed)) },
    HeraldCommand(spec: .lint) { parsed throws(UsageError) in .lint(try LintOptions(parsed)) },
    HeraldCommand(spec: .audit) { parsed throws(UsageError) in .audit(try AuditOptions(parsed)) },
    HeraldCommand(spec: .doctor) { parsed throws(UsageError) in .doctor(try DoctorOptions(parsed)) },
    HeraldCommand(spec: .emulator) { parsed throws(UsageError) in .emulator(try EmulatorOptions(parsed)) },
    HeraldCommand(spec: .gateway) { parsed throws(UsageError) in .gateway(try GatewayOptions(parsed)) },
    HeraldCommand(spec: .device) { parsed throws(UsageError) in .device(try DeviceOptions(parsed)) },
    HeraldCommand(spec: .jwt) { parsed throws(UsageError) in .jwt(try JWTOptions(parsed)) },
    HeraldCommand(spec: .simulatorFile) { parsed throws(UsageError) in
        .simulatorFile(try SimulatorFileOptions(parsed))
    },
    HeraldCommand(spec: .completion) { parsed throws(UsageError) in
        let name = try parsed.positional(0, named: "SHELL")
        guard let shell = CompletionShell(rawValue: name) else {
            throw .invalidValue(option: "SHELL", value: name, rule: "must be bash, zsh or fish")
        }
        return .completion(shell)
    },
    HeraldCommand(spec: .help) { parsed throws(UsageError) in
        guard let topic = parsed.positionals.first else { return .help(topic: nil) }
        return .help(topic: try heraldCommand(named: topic).spec.name)
    },
    HeraldCommand(spec: .version) { _ in .version },
]

/// The command called `name`; an unknown name throws with the closest command as a suggestion.
func heraldCommand(named name: String) throws(UsageError) -> HeraldCommand {
    if let command = heraldCommandTable.first(where: { $0.spec.name == name }) {
        return command
    }
    let names = heraldCommandTable.map(\.spec.name)
    throw .unknownCommand(name, suggestion: closestMatch(to: name, among: names))
}
