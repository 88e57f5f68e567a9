/// One rule of the device's behaviour, as collected in DEVICE-SEMANTICS.md: what the device does, where
/// that comes from, and for undocumented points the default the model takes.
///
/// Every timeline entry names the rule that decided it, so a reader can tell a documented behaviour from
/// a choice the model made. Ids are stable: never rename one, retire it instead.
public struct DeviceRule: Sendable, Hashable, CustomStringConvertible {
    /// How much the rule can be trusted.
    public enum Label: String, Sendable, Hashable {
        /// Apple documents it.
        case documented = "D"
        /// Developers have observed it; Apple says nothing or something older.
        case observed = "O"
        /// Nobody documents it; the model picked a behaviour (`source` says which).
        case undocumented = "U"
    }

    /// A short stable id (`AUTH-PROMPT`).
    public let id: String
    /// The section of DEVICE-SEMANTICS.md (`1a`).
    public let section: String
    public let label: Label
    /// What the device does, in one sentence.
    public let statement: String
    /// The Apple page or the observation; for `undocumented`, the default chosen.
    public let source: String

    init(_ id: String, _ section: String, _ label: Label, _ statement: String, source: String) {
        self.id = id
        self.section = section
        self.label = label
        self.statement = statement
        self.source = source
    }

    /// `AUTH-PROMPT (1a, D)`.
    public var description: String { "\(id) (\(section), \(label.rawValue))" }
}
