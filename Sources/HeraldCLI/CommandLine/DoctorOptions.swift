/// The command line of `herald doctor`: where the notification comes from (a payload file with the flags of
/// `herald lint`, an apns-id in the emulator's log, a gateway notification id), the servers to ask, and a
/// device profile to play it on.
public struct DoctorOptions: Equatable, Sendable {
    /// The payload and headers, parsed as `herald lint` parses them; nil without a FILE.
    public var lint: LintOptions?
    /// `--apns-id`: looked up (as apns-id or apns-unique-id) in the emulator's log when `--emulator` is given.
    public var apnsID: String?
    /// `--notification`: a gateway notification id, looked up with `--gateway`.
    public var notification: String?
    public var emulator: String?
    public var gateway: String?
    public var controlToken: String?
    public var apiKey: String?
    public var caFile: String?
    /// `--token`: which of a gateway notification's deliveries to diagnose.
    public var token: String?
    /// `--profile`: a device profile (docs/DEVICE.md) the notification is played on.
    public var profile: String?
    /// `--reason` and `--timestamp`: APNs's answer, as the sender logged it.
    public var reason: String?
    public var timestamp: Int?
    public var json: Bool

    public init(
        lint: LintOptions? = nil, apnsID: String? = nil, notification: String? = nil, emulator: String? = nil,
        gateway: String? = nil, controlToken: String? = nil, apiKey: String? = nil, caFile: String? = nil,
        token: String? = nil, profile: String? = nil, reason: String? = nil, timestamp: Int? = nil, json: Bool = false
    ) {
        self.lint = lint
        self.apnsID = apnsID
        self.notification = notification
        self.emulator = emulator
        self.gateway = gateway
        self.controlToken = controlToken
        self.apiKey = apiKey
        self.caFile = caFile
        self.token = token
        self.profile = profile
        self.reason = reason
        self.timestamp = timestamp
        self.json = json
    }

    /// Reads the options from arguments parsed against `CommandSpec.doctor`.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        if parsed.positionals.count > 1 { throw .unexpectedArgument(parsed.positionals[1]) }
        let file = parsed.positionals.first
        let notification = parsed.value("notification")
        let emulator = parsed.value("emulator")
        let apnsID = parsed.value("apns-id")
        if file == nil, notification == nil, apnsID == nil || emulator == nil {
            throw .missingArgument("FILE, --apns-id with --emulator, or --notification with --gateway")
        }
        if notification != nil, parsed.value("gateway") == nil { throw .missingOption("--gateway") }
        if file != nil, notification != nil {
            throw .invalidValue(
                option: "--notification", value: notification, rule: "takes no FILE: the gateway has it")
        }
        var timestamp: Int?
        if let text = parsed.value("timestamp") {
            guard let value = Int(text), value > 0 else {
                throw .invalidValue(option: "--timestamp", value: text, rule: "must be milliseconds since 1970")
            }
            timestamp = value
        }
        self.init(
            lint: file.map { file in
                LintOptions(
                    input: file, pushType: parsed.value("type"), topic: parsed.value("topic"),
                    priority: parsed.value("priority"), collapseID: parsed.value("collapse-id"),
                    expiration: parsed.value("expiration"), token: parsed.value("token"), apnsID: apnsID)
            },
            apnsID: apnsID, notification: notification, emulator: emulator, gateway: parsed.value("gateway"),
            controlToken: parsed.value("control-token"), apiKey: parsed.value("api-key"),
            caFile: parsed.value("ca-file"), token: parsed.value("token"), profile: parsed.value("profile"),
            reason: parsed.value("reason"), timestamp: timestamp, json: parsed.flag("json"))
    }
}
