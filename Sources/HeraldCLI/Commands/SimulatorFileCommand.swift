import APNs

/// `herald simulator-file`: wraps a payload into an `.apns` file for `xcrun simctl push` (or drag
/// and drop onto a Simulator): the payload plus "Simulator Target Bundle", at most 4096 bytes.
struct SimulatorFileCommand {
    let options: SimulatorFileOptions
    let context: CommandContext

    func run() -> Int32 {
        if let problem = Topic.bundleIDProblem(options.bundle) {
            context.standardError("herald simulator-file: --bundle \(problem)\n")
            return ExitStatus.failure
        }
        let bytes: [UInt8]
        do {
            bytes = try context.read(options.input)
        } catch {
            context.standardError("herald simulator-file: \(error)\n")
            return ExitStatus.failure
        }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes)
        } catch {
            context.standardError("herald simulator-file: \(options.input == "-" ? "standard input" : options.input): \(error)\n")
            return ExitStatus.failure
        }
        guard var object = value.objectValue else {
            context.standardError("herald simulator-file: the payload is \(value.kindDescription), not an object\n")
            return ExitStatus.failure
        }
        object["Simulator Target Bundle"] = .string(options.bundle)
        let file = JSONValue.object(object).encoded()
        let report = Linter.lint(LintRequest(payload: file, destination: .simulatorFile, now: context.now()))
        let errors = report.findings(.error)
        guard errors.isEmpty else {
            for finding in errors { context.standardError("herald simulator-file: \(finding.description)\n") }
            return ExitStatus.failure
        }
        do {
            if let output = options.output {
                try context.writeFile(output, file + [0x0A])
                context.standardError("wrote \(output) (\(file.count) bytes) for \(options.bundle)\n")
            } else {
                context.standardOutput(String(decoding: file, as: UTF8.self) + "\n")
            }
        } catch {
            context.standardError("herald simulator-file: \(error)\n")
            return ExitStatus.failure
        }
        return ExitStatus.success
    }
}
