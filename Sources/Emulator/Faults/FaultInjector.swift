import APNs
import HTTP2
import Synchronization

/// The faults declared through the control API, and which one, if any, a provider request gets.
///
/// At most `limit` faults are declared at once (`add` refuses more). They are kept by id and
/// indexed by what they select (any request, a token, a topic, both): a request looks at the four
/// lists that can hold a fault for it, not at every fault, so faults for other tokens and topics
/// cost it nothing but four lookups.
///
/// Thread-safety: `Sendable`; connections on every loop ask it. When no fault is declared, asking
/// costs one atomic load.
public final class FaultInjector: Sendable {
    /// Faults declared at once unless configured otherwise (`EmulatorConfiguration.faultLimit`).
    public static let defaultLimit = 1000

    private struct Entry {
        let id: Int
        var fault: Fault
        var applied = 0
    }

    /// What a fault selects: nil matches any token, any topic.
    private struct Scope: Hashable {
        let token: String?
        let topic: String?
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        /// The ids of each scope's faults, oldest (smallest) first.
        var byScope: [Scope: [Int]] = [:]
        var nextID = 1
        var injected = 0
        var random = SplitMix64(seed: 0x5eed_0f_fa017)

        mutating func remove(_ id: Int) {
            guard let entry = entries.removeValue(forKey: id) else { return }
            let scope = Scope(token: entry.fault.token, topic: entry.fault.topic)
            byScope[scope]?.removeAll { $0 == id }
            if byScope[scope]?.isEmpty == true { byScope[scope] = nil }
        }
    }

    /// The most faults declared at once.
    public let limit: Int
    private let state = AnnotatedMutex(State())
    private let active = Atomic<Int>(0)

    public init(limit: Int = FaultInjector.defaultLimit) {
        self.limit = max(0, limit)
    }

    /// Declares a fault; returns its id, or nil when `limit` faults are declared already.
    @discardableResult
    public func add(_ fault: Fault) -> Int? {
        state.withLock { state -> Int? in
            guard state.entries.count < limit else { return nil }
            let id = state.nextID
            state.nextID += 1
            state.entries[id] = Entry(id: id, fault: fault)
            state.byScope[Scope(token: fault.token, topic: fault.topic), default: []].append(id)
            active.store(state.entries.count, ordering: .releasing)
            return id
        }
    }

    /// Removes one fault; false if there is none with that id.
    @discardableResult
    public func remove(id: Int) -> Bool {
        state.withLock { state in
            guard state.entries[id] != nil else { return false }
            state.remove(id)
            active.store(state.entries.count, ordering: .releasing)
            return true
        }
    }

    public func removeAll() {
        state.withLock { state in
            state.entries.removeAll()
            state.byScope.removeAll()
            active.store(0, ordering: .releasing)
        }
    }

    /// The faults still in force, oldest first, with their ids and how often each was applied.
    public func list() -> [(id: Int, fault: Fault, applied: Int)] {
        state.withLock { state in
            state.entries.values.sorted { $0.id < $1.id }.map { ($0.id, $0.fault, $0.applied) }
        }
    }

    /// How many faults are declared.
    public var count: Int { active.load(ordering: .acquiring) }

    /// Whether no fault is declared (one atomic load).
    var isEmpty: Bool { active.load(ordering: .acquiring) == 0 }

    /// Faults applied since the emulator started.
    public var injectedCount: Int { state.withLock { $0.injected } }

    /// The fault for a request to `token` (or channel) with `topic`: the oldest declared fault that
    /// matches and whose turn it is. A `next(n)` fault is used up after n requests.
    func fault(token: String?, topic: String?) -> Fault? {
        guard active.load(ordering: .acquiring) > 0 else { return nil }
        return state.withLock { state -> Fault? in
            var scopes = [Scope(token: nil, topic: nil)]
            if let token { scopes.append(Scope(token: token, topic: nil)) }
            if let topic { scopes.append(Scope(token: nil, topic: topic)) }
            if let token, let topic { scopes.append(Scope(token: token, topic: topic)) }
            // The candidates' ids, oldest first: a merge of the (sorted) lists that can apply.
            let lists = scopes.compactMap { state.byScope[$0] }.filter { !$0.isEmpty }
            guard !lists.isEmpty else { return nil }
            var positions = [Int](repeating: 0, count: lists.count)
            while true {
                var next: (list: Int, id: Int)?
                for index in lists.indices where positions[index] < lists[index].count {
                    let id = lists[index][positions[index]]
                    if let current = next, current.id < id { continue }
                    next = (index, id)
                }
                guard let (list, id) = next else { return nil }
                positions[list] += 1
                guard let fault = state.entries[id]?.fault else { continue }
                switch fault.selection {
                case .next(let remaining):
                    if remaining <= 1 {
                        state.remove(id)
                        active.store(state.entries.count, ordering: .releasing)
                    } else {
                        state.entries[id]?.fault.selection = .next(remaining - 1)
                        state.entries[id]?.applied += 1
                    }
                case .fraction(let probability):
                    guard state.random.nextUnit() < probability else { continue }
                    state.entries[id]?.applied += 1
                }
                state.injected += 1
                return fault
            }
        }
    }
}
