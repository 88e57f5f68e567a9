extension PruneAction {
    /// The status a token takes under this action, or nil when it keeps its own: a token uploaded
    /// at or after a 410's timestamp was registered again and stays active; `invalidate` touches only
    /// a token of the environment APNs refused; a token already pruned keeps its first reason.
    public func newStatus(of status: TokenStatus, registeredAt: Int, environment: Environment) -> TokenStatus? {
        guard status == .active else { return nil }
        switch self {
        case .unregister(let timestamp, _): return registeredAt < timestamp ? .unregistered : nil
        case .invalidate(let refused, _): return environment == refused ? .invalid : nil
        case .invalidateForTopic: return .invalid
        }
    }
}
