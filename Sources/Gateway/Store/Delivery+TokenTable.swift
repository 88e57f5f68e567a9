// The table each kind of token lives in: the same name in the SQLite and the PostgreSQL schema.

extension Delivery.Kind {
    /// The table that holds tokens of this kind; nil for channels, which have no token row.
    var tokenTable: String? {
        switch self {
        case .device: "devices"
        case .activity: "activity_tokens"
        case .pushToStart: "push_to_start_tokens"
        case .channel: nil
        }
    }
}
