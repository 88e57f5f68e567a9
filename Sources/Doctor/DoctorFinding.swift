/// The stages a notification passes on its way to the user, in order; `herald doctor` walks them in this
/// order, so the first cause it finds is the one nearest the sender.
public enum DoctorStep: Int, Sendable, Hashable, CaseIterable, Comparable {
    /// The request as the provider built it: payload and headers, checked by the linter.
    case request = 1
    /// APNs's answer: the status and reason, with Apple's meaning.
    case answer
    /// What APNs does while the device is offline: the newest push per app kept, collapse ids, expiration.
    case storage
    /// What the device does with it: authorization, foreground, service extension, background budget.
    case device

    /// How a finding names its step (`request`, `answer`, `storage`, `device`).
    public var name: String {
        switch self {
        case .request: "request"
        case .answer: "answer"
        case .storage: "storage"
        case .device: "device"
        }
    }

    public static func < (lhs: DoctorStep, rhs: DoctorStep) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One thing the doctor found on a notification's path.
public struct DoctorFinding: Sendable, Hashable, CustomStringConvertible {
    /// How much a finding explains.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Why the notification did not arrive, or did not show as meant.
        case cause
        /// Something wrong that did not stop it this time, or may stop it elsewhere.
        case warning
        /// What happened at this step, for the record.
        case note
    }

    public let step: DoctorStep
    public let kind: Kind
    /// Where the finding comes from: a lint rule (`APS-BG-PRIORITY`), an APNs reason (`Unregistered`), a
    /// device rule (`NSE-TIME-LIMIT`) or one of the doctor's own (`STORE-REPLACED`).
    public let id: String
    public let message: String
    /// What to do about it; nil for a note.
    public let fix: String?

    public init(_ step: DoctorStep, _ kind: Kind, id: String, _ message: String, fix: String? = nil) {
        self.step = step
        self.kind = kind
        self.id = id
        self.message = message
        self.fix = fix
    }

    public var description: String { "[\(step.name)] \(kind.rawValue) \(id): \(message)" }
}
