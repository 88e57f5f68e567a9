/// The command line of `herald simulator-file`.
public struct SimulatorFileOptions: Equatable, Sendable {
    /// The payload file, or `-` for standard input.
    public var input: String
    /// The app's bundle ID, written as "Simulator Target Bundle".
    public var bundle: String
    /// Where to write the `.apns` file; `nil` means standard output.
    public var output: String?

    public init(input: String, bundle: String, output: String? = nil) {
        self.input = input
        self.bundle = bundle
        self.output = output
    }

    /// Reads the options from arguments parsed against `CommandSpec.simulatorFile`.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        self.init(
            input: try parsed.positional(0, named: "FILE"),
            bundle: try CommandLineValues.bundleID(parsed.requiredValue("topic"), option: "--topic"),
            output: parsed.value("output")
        )
    }
}
