/// What one `herald` invocation asks for: the value `parseCommandLine(_:)` turns arguments into.
public enum Command: Equatable, Sendable {
    /// Print help: Herald's overview when `topic` is `nil`, else the help of the command named `topic`.
    case help(topic: String?)
    /// Print `heraldVersion`.
    case version
    /// Print a shell completion script.
    case completion(CompletionShell)
    /// Send notifications.
    case send(SendOptions)
    /// Manage broadcast channels.
    case channels(ChannelsOptions)
    /// Run the APNs emulator.
    case emulator(EmulatorOptions)
    /// Run the gateway, or manage its API keys.
    case gateway(GatewayOptions)
    /// Act as a simulated device on the emulator.
    case device(DeviceOptions)
    /// Check a payload and its headers.
    case lint(LintOptions)
    /// Check an app's notification code.
    case audit(AuditOptions)
    /// Explain why a notification did not arrive.
    case doctor(DoctorOptions)
    /// Print a provider authentication token.
    case jwt(JWTOptions)
    /// Wrap a payload into a Simulator `.apns` file.
    case simulatorFile(SimulatorFileOptions)
}
