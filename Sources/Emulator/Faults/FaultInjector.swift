import APNs
import Synchronization

/// The faults declared through the control API, and which one, if any, a provider request gets.
///
/// Thread-safety: `Sendable`; connections on every loop ask it. When no fault is declared, asking
/// costs one atomic load.
public final class FaultInjector: Sendable {
    private struct Entry {
        let id: Int
        var fault: Fault
        var applied = 0
    }

    private struct State {
        var entries: [Entry] = []
        var nextID = 1
        var injected = 0
        var random = SplitMix64(seed: 0x5eed_0f_fa017)
    }

    private let state = Mutex(State())
    private let active = Atomic<Int>(0)

    public init() {}

    /// Declares a fault; returns its id.
    @discardableResult
    public func add(_ fault: Fault) -> Int {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.entries.append(Entry(id: id, fault: fault))
            active.store(state.entries.count, ordering: .releasing)
            return id
        }
    }

    /// Removes one fault; false if there is none with that id.
    @discardableResult
    public func remove(id: Int) -> Bool {
        state.withLock { state in
            guard let index = state.entries.firstIndex(where: { $0.id == id }) else { return false }
            state.entries.remove(at: index)
            active.store(state.entries.count, ordering: .releasing)
            return true
        }
    }

    public func removeAll() {
        state.withLock { state in
            state.entries.removeAll()
            active.store(0, ordering: .releasing)
        }
    }

    /// The faults still in force, oldest first, with their ids and how often each was applied.
    public func list() -> [(id: Int, fault: Fault, applied: Int)] {
        state.withLock { $0.entries.map { ($0.id, $0.fault, $0.applied) } }
    }

    /// Whether no fault is declared (one atomic load).
    var isEmpty: Bool { active.load(ordering: .acquiring) == 0 }

    /// Faults applied since the emulator started.
    public var injectedCount: Int { state.withLock { $0.injected } }

    /// The fault for a request to `token` (or channel) with `topic`: the oldest declared fault that
    /// matches and whose turn it is. A `next(n)` fault is used up after n requests.
    func fault(token: String?, topic: String?) -> Fault? {
        guard active.load(ordering: .acquiring) > 0 else { return nil }
        return state.withLock { state -> Fault? in
            for index in state.entries.indices {
                let fault = state.entries[index].fault
                if let wanted = fault.token, wanted != token { continue }
                if let wanted = fault.topic, wanted != topic { continue }
                switch fault.selection {
                case .next(let remaining):
                    if remaining <= 1 {
                        state.entries.remove(at: index)
                        active.store(state.entries.count, ordering: .releasing)
                    } else {
                        state.entries[index].fault.selection = .next(remaining - 1)
                        state.entries[index].applied += 1
                    }
                case .fraction(let probability):
                    guard state.random.nextUnit() < probability else { continue }
                    state.entries[index].applied += 1
                }
                state.injected += 1
                return fault
            }
            return nil
        }
    }
}
