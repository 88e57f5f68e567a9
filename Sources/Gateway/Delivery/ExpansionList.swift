import Synchronization

/// The notifications whose recipients are still to be expanded, shared by the engine's workers:
/// the scheduler adds what the store lists, a worker takes the next one for one chunk and
/// removes it once its expansion is finished. Workers take them in turn, so several notifications
/// expanding at once each get chunks.
///
/// Thread-safety: `Sendable`; a `Mutex` guards the list.
final class ExpansionList: Sendable {
    private struct State {
        var ids: [NotificationID] = []
        var turn = 0
    }

    private let state = Mutex(State())

    /// Adds the ids not already listed, in order.
    func add(_ ids: [NotificationID]) {
        guard !ids.isEmpty else { return }
        state.withLock { state in
            for id in ids where !state.ids.contains(id) { state.ids.append(id) }
        }
    }

    /// The next id in turn; nil when none is listed.
    func next() -> NotificationID? {
        state.withLock { state in
            guard !state.ids.isEmpty else { return nil }
            state.turn = (state.turn + 1) % state.ids.count
            return state.ids[state.turn]
        }
    }

    func remove(_ id: NotificationID) {
        state.withLock { state in state.ids.removeAll { $0 == id } }
    }
}
