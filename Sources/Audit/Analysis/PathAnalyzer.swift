/// Runs a `PathPolicy` over a function body; see PathAnalysis.swift.
struct PathAnalyzer {
    typealias States = Set<PathState>

    struct Breakable {
        let isLoop: Bool
        let deferDepth: Int
        var breaks: States = []
        var continues: States = []
    }

    /// A function, inlined function or closure: where its returns go.
    struct Frame {
        var exits: [(state: PathState, at: SourceLocation)] = []
        var breakables: [Breakable] = []
        var throwTargets: [States] = []
        var defers: [[Statement]] = []
        /// Whether the body has a tracked call somewhere, so that its early exits are the ones to blame.
        let handlesTracked: Bool
    }

    let policy: PathPolicy
    /// The app's functions by base name, for calls to run in place.
    let functions: [String: [FunctionDecl]]
    var observations = Set<PathObservation>()
    /// How many (path, exit) pairs had the tracked call: zero means no path calls it.
    var exitsWithCall = 0
    var names: Set<String>
    var frames: [Frame] = []
    var localClosures: [String: BoundClosure] = [:]
    var inlining: [String] = []

    init(policy: PathPolicy, functions: [String: [FunctionDecl]]) {
        self.policy = policy
        self.functions = functions
        self.names = policy.names
    }

    /// Analyses `function`'s body; the observations are in `observations`.
    mutating func analyze(_ function: FunctionDecl) {
        frames = [Frame(handlesTracked: true)]
        let end = runBlock(function.body, [PathState()])
        let frame = frames.removeLast()
        let exits = frame.exits + end.map { (state: $0, at: function.end) }
        for (state, at) in exits {
            if state.calls > 0 { exitsWithCall += 1 }
            if state.calls == 0 {
                observations.insert(PathObservation(kind: .exitWithoutCall, at: state.silentExit ?? at))
            }
            if policy.tracksPrerequisite && !state.prerequisite {
                observations.insert(PathObservation(kind: .exitWithoutPrerequisite, at: state.silentExit ?? at))
            }
        }
    }

    // MARK: Statements

    mutating func runBlock(_ statements: [Statement], _ entry: States) -> States {
        var states = entry
        let deferBase = frames[frames.count - 1].defers.count
        for statement in statements {
            if states.isEmpty { break }
            states = run(statement, states)
        }
        // Defers of this block run as it falls through its end.
        while frames[frames.count - 1].defers.count > deferBase {
            let block = frames[frames.count - 1].defers.removeLast()
            if !states.isEmpty { states = runBlock(block, states) }
        }
        return states
    }

    private mutating func run(_ statement: Statement, _ states: States) -> States {
        switch statement {
        case .expression(let expression):
            return evaluate(expression, states)
        case .binding(let bound, let value, _):
            if case .closure(let closure)? = value {
                for name in bound { localClosures[name] = BoundClosure(closure, names: names, closures: localClosures) }
                return states
            }
            guard let value else { return states }
            // `let h = contentHandler`, `let hex = hexString(token)`: the new name is tracked too.
            if !value.mentionedNames.isDisjoint(with: names) { names.formUnion(bound) }
            return evaluate(value, states)
        case .ifElse(let conditions, let then, let otherwise, _):
            let tested = evaluate(conditions, states)
            return runBlock(then, tested).union(otherwise.map { runBlock($0, tested) } ?? tested)
        case .guardElse(let conditions, let body, _):
            let tested = evaluate(conditions, states)
            _ = runBlock(body, tested)  // the else block must leave; what falls through is unreachable
            return tested
        case .switchCases(let subject, let cases, _):
            let tested = evaluate(subject, states)
            frames[frames.count - 1].breakables.append(Breakable(isLoop: false, deferDepth: deferDepth))
            var out: States = []
            for body in cases { out.formUnion(runBlock(body, tested)) }
            let breakable = frames[frames.count - 1].breakables.removeLast()
            return cases.isEmpty ? tested : out.union(breakable.breaks)
        case .loop(let header, let body, let atLeastOnce, _):
            return runLoop(header: header, body: body, atLeastOnce: atLeastOnce, states)
        case .doCatch(let body, let catches, _):
            guard !catches.isEmpty else { return runBlock(body, states) }
            frames[frames.count - 1].throwTargets.append([])
            let out = runBlock(body, states)
            let thrown = frames[frames.count - 1].throwTargets.removeLast()
            var result = out
            if !thrown.isEmpty { for body in catches { result.formUnion(runBlock(body, thrown)) } }
            return result
        case .returnStatement(let value, let at):
            let states = value.map { evaluate($0, states) } ?? states
            exit(runAllDefers(states), at: at)
            return []
        case .throwStatement(let value, let at):
            let states = value.map { evaluate($0, states) } ?? states
            throwFrom(states, at: at)
            return []
        case .breakStatement:
            guard let index = frames[frames.count - 1].breakables.indices.last else { return [] }
            let leaving = runDefers(states, downTo: frames[frames.count - 1].breakables[index].deferDepth)
            frames[frames.count - 1].breakables[index].breaks.formUnion(leaving)
            return []
        case .continueStatement:
            guard let index = frames[frames.count - 1].breakables.lastIndex(where: \.isLoop) else { return [] }
            let leaving = runDefers(states, downTo: frames[frames.count - 1].breakables[index].deferDepth)
            frames[frames.count - 1].breakables[index].continues.formUnion(leaving)
            return []
        case .deferBlock(let body, _):
            frames[frames.count - 1].defers.append(body)
            return states
        case .function:
            return states
        }
    }

    private var deferDepth: Int { frames[frames.count - 1].defers.count }

    private mutating func runLoop(header: [Expression], body: [Statement], atLeastOnce: Bool, _ states: States)
        -> States
    {
        var entry = atLeastOnce ? states : evaluate(header, states)
        var all: States = atLeastOnce ? [] : entry
        // Twice is enough: a second pass shows a second call; counts saturate at two.
        for _ in 0..<2 {
            frames[frames.count - 1].breakables.append(Breakable(isLoop: true, deferDepth: deferDepth))
            let out = runBlock(body, entry)
            let breakable = frames[frames.count - 1].breakables.removeLast()
            var after = out.union(breakable.continues)
            if atLeastOnce { after = evaluate(header, after) }
            all.formUnion(after)
            all.formUnion(breakable.breaks)
            entry = after
        }
        return all
    }

    private mutating func runDefers(_ states: States, downTo depth: Int) -> States {
        var states = states
        let blocks = frames[frames.count - 1].defers
        for block in blocks[depth...].reversed() where !states.isEmpty {
            // A defer's body is run with the defers below it only.
            let saved = frames[frames.count - 1].defers
            frames[frames.count - 1].defers = Array(saved.prefix(depth))
            states = runBlock(block, states)
            frames[frames.count - 1].defers = saved
        }
        return states
    }

    private mutating func runAllDefers(_ states: States) -> States { runDefers(states, downTo: 0) }

    private mutating func exit(_ states: States, at: SourceLocation) {
        for state in states { frames[frames.count - 1].exits.append((state, at)) }
    }

    mutating func throwFrom(_ states: States, at: SourceLocation) {
        if frames[frames.count - 1].throwTargets.isEmpty {
            exit(runAllDefers(states), at: at)
        } else {
            frames[frames.count - 1].throwTargets[frames[frames.count - 1].throwTargets.count - 1].formUnion(states)
        }
    }
}

/// A closure with the scope it was written in: the tracked names and the closures bound to names there.
struct BoundClosure {
    let closure: Closure
    let names: Set<String>
    let closures: [String: BoundClosure]

    init(_ closure: Closure, names: Set<String>, closures: [String: BoundClosure]) {
        self.closure = closure
        self.names = names
        self.closures = closures
    }
}
