// Expressions and calls for PathAnalyzer: where closures run, and which functions run in place.

extension PathAnalyzer {
    // MARK: Expressions

    mutating func evaluate(_ expressions: [Expression], _ states: States) -> States {
        var states = states
        for expression in expressions where !states.isEmpty { states = evaluate(expression, states) }
        return states
    }

    mutating func evaluate(_ expression: Expression, _ states: States) -> States {
        switch expression {
        case .call(let call):
            return evaluateCall(call, states)
        case .name, .closure:
            return states
        case .member(let base, _, _):
            return base.map { evaluate($0, states) } ?? states
        case .string(_, let parts, _):
            return evaluate(parts, states)
        case .assignment(let dest, let source):
            var states = evaluate(source, states)
            states = evaluate(dest, states)
            return apply(policy.classifyAssignment(dest, source, names), at: dest.location, states)
        case .tryExpression(let inner):
            let states = evaluate(inner, states)
            throwFrom(states, at: inner.location ?? SourceLocation(line: 0, column: 0))
            return states
        case .other(let kind, let children):
            // `if let x = value`: x is tracked when value mentions a tracked name.
            if kind == "condition_binding", let value = children.last, !value.mentionedNames.isDisjoint(with: names) {
                for case .name(let bound, _) in children.dropLast() { names.insert(bound) }
            }
            return evaluate(children, states)
        }
    }

    private mutating func evaluateCall(_ call: Call, _ states: States) -> States {
        var states = states
        if case .member(let base?, _, _) = call.callee { states = evaluate(base, states) }
        for argument in call.arguments {
            if case .closure = argument.value { continue }
            states = evaluate(argument.value, states)
        }
        if terminatingCalls.contains(call.name) && call.callee.namePath.count == 1 { return [] }
        let path = call.namePath
        if path.count == 1, let bound = localClosures[path[0]] { return runBound(bound, states) }
        if let function = appFunction(for: call) {
            return runInline(function, call: call, states)
        }
        var event = policy.classify(call, names)
        if event == .none && policy.passingOnCounts && passesTracked(call) { event = .tracked }
        states = apply(event, at: call.location, states)
        let closures = call.closures
        if closures.isEmpty { return states }
        if iteratingCalls.contains(call.name) {
            var all = states
            var entry = states
            for _ in 0..<2 {
                var out: States = []
                for closure in closures { out.formUnion(runClosure(closure, entry)) }
                all.formUnion(out)
                entry = out
            }
            return all
        }
        var out: States = []
        for closure in closures { out.formUnion(runClosure(closure, states)) }
        return out
    }

    private func passesTracked(_ call: Call) -> Bool {
        call.arguments.contains { argument in
            let path = argument.value.namePath
            guard let last = path.last, names.contains(last) else { return false }
            if case .call = argument.value { return false }
            return path.count == 1 || (path.count == 2 && path[0] == "self")
        }
    }

    private mutating func apply(_ event: PathEvent, at: SourceLocation?, _ states: States) -> States {
        guard event != .none, let at else { return states }
        return Set(
            states.map { state in
                var state = state
                switch event {
                case .tracked:
                    if state.calls > 0 { observations.insert(PathObservation(kind: .secondCall, at: at)) }
                    if policy.tracksPrerequisite && !state.prerequisite {
                        observations.insert(PathObservation(kind: .callBeforePrerequisite, at: at))
                    }
                    state.calls = min(2, state.calls + 1)
                case .prerequisite:
                    state.prerequisite = true
                case .none:
                    break
                }
                return state
            })
    }

    /// The one function of the app `call` names (by base name and labels), if there is exactly one.
    private func appFunction(for call: Call) -> FunctionDecl? {
        guard inlining.count < 4, let candidates = functions[call.name] else { return nil }
        let matching = candidates.filter { function in
            guard function.parameters.count == call.arguments.count, !inlining.contains(function.fullName) else {
                return false
            }
            return zip(function.parameters, call.arguments).allSatisfy { parameter, argument in
                argument.label == nil || argument.label == parameter.label
            }
        }
        return matching.count == 1 ? matching[0] : nil
    }

    private mutating func runInline(_ function: FunctionDecl, call: Call, _ states: States) -> States {
        let savedNames = names
        let savedClosures = localClosures
        for (parameter, argument) in zip(function.parameters, call.arguments) {
            if case .closure(let closure) = argument.value {
                // The parameter is this closure: calling it runs the closure, in the caller's scope.
                localClosures[parameter.name] = BoundClosure(closure, names: savedNames, closures: savedClosures)
                names.remove(parameter.name)
            } else if let last = argument.value.namePath.last, names.contains(last) {
                names.insert(parameter.name)
            }
        }
        inlining.append(function.fullName)
        let out = runBody(function.body, end: function.end, states)
        inlining.removeLast()
        names = savedNames
        localClosures = savedClosures
        return out
    }

    /// Runs a closure bound to a name with the names it saw where it was written.
    private mutating func runBound(_ bound: BoundClosure, _ states: States) -> States {
        let savedNames = names
        let savedClosures = localClosures
        names = bound.names
        localClosures = bound.closures
        let out = runClosure(bound.closure, states)
        names = savedNames
        localClosures = savedClosures
        return out
    }

    private mutating func runClosure(_ closure: Closure, _ states: States) -> States {
        runBody(closure.body, end: closure.end, states)
    }

    /// Runs a closure's or an inlined function's body: its returns come back here, not to the caller's exit.
    private mutating func runBody(_ body: [Statement], end: SourceLocation, _ states: States) -> States {
        frames.append(Frame(handlesTracked: containsTracked(body)))
        let out = runBlock(body, states)
        let frame = frames.removeLast()
        var result: States = []
        for (state, at) in frame.exits.map({ ($0.state, $0.at) }) + out.map({ ($0, end) }) {
            var state = state
            let missing = state.calls == 0 || (policy.tracksPrerequisite && !state.prerequisite)
            // The innermost closure that gave up is the place to fix; an outer one keeps it.
            if missing && frame.handlesTracked && state.silentExit == nil { state.silentExit = at }
            result.insert(state)
        }
        return result
    }

    private func containsTracked(_ body: [Statement]) -> Bool {
        var found = false
        for statement in body {
            statement.visit { expression in
                guard !found, case .call(let call) = expression else { return }
                if policy.classify(call, names) != .none || passesTracked(call) { found = true }
            }
        }
        return found
    }
}
