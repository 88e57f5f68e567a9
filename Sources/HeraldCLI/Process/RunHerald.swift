/// Runs one `herald` invocation: parses `arguments` (without argv[0]), runs the command, returns the
/// exit status. Errors are printed as one line on standard error; nothing here traps on bad input.
public func runHerald(_ arguments: [String], context: CommandContext = .system) async -> Int32 {
    let command: Command
    do {
        command = try parseCommandLine(arguments, environment: context.environment)
    } catch {
        let name = arguments.first.flatMap { first in CommandSpec.heraldCommands.first { $0.name == first }?.name }
        let prefix = name.map { "herald \($0)" } ?? "herald"
        let help = name.map { "herald \($0) --help" } ?? "herald --help"
        context.standardError("\(prefix): \(error); see '\(help)'\n")
        return ExitStatus.usage
    }
    switch command {
    case .help(let topic):
        context.standardOutput(helpText(forTopic: topic))
        return ExitStatus.success
    case .version:
        context.standardOutput("herald \(heraldVersion)\n")
        return ExitStatus.success
    case .completion(let shell):
        context.standardOutput(completionScript(for: shell, program: "herald", commands: CommandSpec.heraldCommands))
        return ExitStatus.success
    case .send(let options):
        return await SendCommand(options: options, context: context).run()
    case .channels(let options):
        return await ChannelsCommand(options: options, context: context).run()
    case .emulator(let options):
        return await EmulatorCommand(options: options, context: context).run()
    case .gateway(let options):
        return await GatewayCommand(options: options, context: context).run()
    case .device(let options):
        return await DeviceCommand(options: options, context: context).run()
    case .lint(let options):
        return LintCommand(options: options, context: context).run()
    case .audit(let options):
        return AuditCommand(options: options, context: context).run()
    case .doctor(let options):
        return await DoctorCommand(options: options, context: context).run()
    case .jwt(let options):
        return JWTCommand(options: options, context: context).run()
    case .simulatorFile(let options):
        return SimulatorFileCommand(options: options, context: context).run()
    }
}
