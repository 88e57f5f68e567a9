/// The `apns-push-type` header: what kind of notification this is, which decides the topic suffix,
/// the allowed priorities and the payload limit.
public enum PushType: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case alert
    case background
    case location
    case voip
    case complication
    case fileprovider
    case mdm
    case liveactivity
    case pushtotalk
    case widgets
    case controls

    /// Parses a header value; push types are lowercase on the wire and matched exactly.
    public init(headerValue: String) throws(FieldError) {
        guard let type = PushType(rawValue: headerValue) else {
            let allowed = PushType.allCases.map(\.rawValue).joined(separator: ", ")
            throw FieldError(field: "apns-push-type", message: "\(quoted(headerValue)) is not a push type; use one of \(allowed)")
        }
        self = type
    }

    public var description: String { rawValue }

    /// The suffix the topic must carry after the bundle id (empty for alert and background;
    /// nil for mdm, whose topic is the MDM certificate's own).
    public var topicSuffix: String? {
        switch self {
        case .alert, .background: ""
        case .location: ".location-query"
        case .voip: ".voip"
        case .complication: ".complication"
        case .fileprovider: ".pushkit.fileprovider"
        case .mdm: nil
        case .liveactivity: ".push-type.liveactivity"
        case .pushtotalk: ".voip-ptt"
        case .widgets: ".push-type.widgets"
        case .controls: ".push-type.controls"
        }
    }

    /// The largest payload APNs accepts for this push type to a device, in bytes.
    public var payloadLimit: Int {
        self == .voip ? PayloadLimits.voip : PayloadLimits.standard
    }

    /// The priorities Apple documents for this push type.
    public var allowedPriorities: [Priority] {
        switch self {
        case .background: [.powerConsiderate]
        case .voip, .pushtotalk: [.immediate]
        case .alert, .location, .liveactivity: [.immediate, .powerConsiderate]
        case .complication, .fileprovider, .mdm, .widgets, .controls: [.immediate, .powerConsiderate, .low]
        }
    }

    /// The priority APNs assumes when the header is absent (10), except where it would be wrong.
    public var defaultPriority: Priority {
        self == .background ? .powerConsiderate : .immediate
    }

    /// Whether APNs accepts this push type only with token (JWT) authentication.
    public var requiresTokenAuthentication: Bool {
        self == .location
    }

    /// Whether the system reads an `aps` dictionary for this push type. PushKit types (voip,
    /// complication, fileprovider, location, pushtotalk) hand the whole payload to the app, and MDM
    /// payloads are `{"mdm": ...}`.
    public var requiresAPS: Bool {
        switch self {
        case .alert, .background, .liveactivity, .widgets, .controls: true
        case .location, .voip, .complication, .fileprovider, .mdm, .pushtotalk: false
        }
    }

    /// Every suffix some push type uses, longest first (for recognising a topic's bundle id).
    static let knownSuffixes: [String] = PushType.allCases.compactMap(\.topicSuffix).filter { !$0.isEmpty }
        .sorted { $0.count > $1.count }
}

/// Payload size limits in bytes, as APNs counts them (the encoded body).
public enum PayloadLimits {
    public static let standard = 4096
    public static let voip = 5120
    public static let broadcast = 5120
    public static let simulatorFile = 4096
}
