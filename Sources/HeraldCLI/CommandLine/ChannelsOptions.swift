import APNs

/// The command line of `herald channels`, checked for shape: which options each action needs,
/// a bare bundle id, a storage policy of 0 or 1, a well-formed channel id.
public struct ChannelsOptions: Equatable, Sendable {
    /// What to do with channels.
    public enum Action: String, Equatable, Sendable, CaseIterable {
        case create, read, delete, list
    }

    public var action: Action
    public var credentials: SendOptions.Credentials
    public var destination: SendOptions.Destination
    public var bundleID: String
    /// create only.
    public var storagePolicy: MessageStoragePolicy?
    /// read and delete only.
    public var channelID: ChannelID?
    public var requestID: String?
    public var caFile: String?
    public var proxy: String?
    public var timeoutSeconds: Double?
    public var json: Bool

    public init(
        action: Action, credentials: SendOptions.Credentials, destination: SendOptions.Destination = .sandbox,
        bundleID: String, storagePolicy: MessageStoragePolicy? = nil, channelID: ChannelID? = nil,
        requestID: String? = nil, caFile: String? = nil, proxy: String? = nil, timeoutSeconds: Double? = nil,
        json: Bool = false
    ) {
        self.action = action
        self.credentials = credentials
        self.destination = destination
        self.bundleID = bundleID
        self.storagePolicy = storagePolicy
        self.channelID = channelID
        self.requestID = requestID
        self.caFile = caFile
        self.proxy = proxy
        self.timeoutSeconds = timeoutSeconds
        self.json = json
    }

    init(_ parsed: ParsedArguments) throws(UsageError) {
        guard let word = parsed.positionals.first else {
            throw .missingArgument("ACTION (create, read, delete or list)")
        }
        guard let action = Action(rawValue: word) else {
            throw .invalidValue(option: "ACTION", value: word, rule: "must be create, read, delete or list")
        }
        if parsed.positionals.count > 1 { throw .unexpectedArgument(parsed.positionals[1]) }
        let bundleID = try Self.bundleID(parsed)
        var policy: MessageStoragePolicy?
        if let text = parsed.value("storage-policy") {
            guard action == .create else {
                throw .invalidValue(option: "--storage-policy", value: nil, rule: "is for create only")
            }
            do { policy = try MessageStoragePolicy(text: text) } catch {
                throw .invalidValue(
                    option: "--storage-policy", value: text, rule: "must be 0 (no storage) or 1 (most recent message)")
            }
        } else if action == .create {
            throw .missingOption("--storage-policy (0 or 1, for create)")
        }
        var channelID: ChannelID?
        if let text = parsed.value("channel") {
            guard action == .read || action == .delete else {
                throw .invalidValue(option: "--channel", value: nil, rule: "is for read and delete only")
            }
            do { channelID = try ChannelID(text) } catch {
                throw .invalidValue(option: "--channel", value: text, rule: "must be the base64 id APNs gave on create")
            }
        } else if action == .read || action == .delete {
            throw .missingOption("--channel (the channel id, for \(action.rawValue))")
        }
        if let text = parsed.value("request-id"), (try? APNsID(text)) == nil {
            throw .invalidValue(
                option: "--request-id", value: text, rule: "must be a UUID (8-4-4-4-12 hexadecimal digits)")
        }
        var timeout: Double?
        if let text = parsed.value("timeout") {
            guard let value = Double(text), value.isFinite, value > 0, value <= 3600 else {
                throw .invalidValue(
                    option: "--timeout", value: text, rule: "must be seconds, more than 0 and at most 3600")
            }
            timeout = value
        }
        self.init(
            action: action, credentials: try SendOptions.credentials(parsed),
            destination: try SendOptions.destination(parsed), bundleID: bundleID, storagePolicy: policy,
            channelID: channelID, requestID: parsed.value("request-id"), caFile: parsed.value("ca-file"),
            proxy: parsed.value("proxy"), timeoutSeconds: timeout, json: parsed.flag("json"))
    }

    /// --topic (or its old name --bundle-id): a bundle id without a push-type suffix.
    private static func bundleID(_ parsed: ParsedArguments) throws(UsageError) -> String {
        guard let value = parsed.value("topic") else { throw .missingOption("--topic (the app's bundle id)") }
        if let problem = Topic.bundleIDProblem(value) {
            throw .invalidValue(option: "--topic", value: nil, rule: problem)
        }
        return value
    }
}
