// Registration and the device token: AUDIT-REGISTER-AUTHORIZATION, AUDIT-TOKEN-STRING, AUDIT-TOKEN-UPLOAD.

extension AppModel {
    func registrationFindings() -> [AuditFinding] {
        var findings: [AuditFinding] = []
        let authorization = authorizationNames
        for located in functions {
            walk(located.function.body, WalkContext()) { expression, context in
                guard case .call(let call) = expression, call.name == "registerForRemoteNotifications" else { return }
                guard context.conditions.contains(where: { !$0.mentionedNames.isDisjoint(with: authorization) }) else {
                    return
                }
                findings.append(
                    AuditFinding(
                        rule: .registerAuthorization, path: located.path, location: call.location,
                        message: "registerForRemoteNotifications() runs only when notifications are authorized"))
            }
        }
        for located in functions(named: "application(_:didRegisterForRemoteNotificationsWithDeviceToken:)") {
            guard located.function.parameters.count == 2 else { continue }
            findings += tokenFindings(located, token: located.function.parameters[1].name)
        }
        return findings
    }

    /// Names that hold the authorization answer: the first parameter of requestAuthorization's closure,
    /// what `try await requestAuthorization` is bound to, and `authorizationStatus`.
    private var authorizationNames: Set<String> {
        var names: Set<String> = ["authorizationStatus"]
        for located in functions {
            for statement in located.function.body {
                statement.visit { expression in
                    if case .call(let call) = expression, call.name == "requestAuthorization",
                        let first = call.closures.first?.parameters.first
                    {
                        names.insert(first)
                    }
                }
            }
            walkBindings(located.function.body) { bound, value in
                var asks = false
                value.visit(enteringClosures: false) {
                    if case .call(let c) = $0, c.name == "requestAuthorization" { asks = true }
                }
                if asks { names.formUnion(bound) }
            }
        }
        return names
    }

    private func tokenFindings(_ located: AppModel.Located, token: String) -> [AuditFinding] {
        var findings: [AuditFinding] = []
        var names: Set<String> = [token]
        walkBindings(located.function.body) { bound, value in
            if value.namePath.count == 1, names.contains(value.namePath[0]) { names.formUnion(bound) }
        }
        func isToken(_ expression: Expression) -> Bool {
            let path = expression.namePath
            return path.count == 1 && names.contains(path[0])
        }
        func report(_ at: SourceLocation, _ how: String) {
            findings.append(
                AuditFinding(
                    rule: .tokenString, path: located.path, location: at,
                    message: "the device token is turned into text by \(how)"))
        }
        walk(located.function.body, WalkContext()) { expression, _ in
            switch expression {
            case .call(let call) where ["String", "NSString"].contains(call.name) && call.namePath.count == 1:
                let labels = call.labels.map { $0 ?? "_" }
                guard let first = labels.first, call.arguments.contains(where: { isToken($0.value) }) else { return }
                if ["data", "decoding", "describing", "reflecting"].contains(first) {
                    report(call.location, "\(call.name)(\(labels.map { $0 + ":" }.joined()))")
                }
            case .member(let base?, let name, let at) where ["description", "debugDescription"].contains(name):
                if isToken(base) { report(at, ".\(name)") }
            case .string(_, let parts, let at):
                if parts.contains(where: isToken) { report(at, "string interpolation") }
            default:
                break
            }
        }
        var policy = PathPolicy(names: [token]) { call, names in
            tokenSink(call, names) ? .tracked : .none
        }
        policy.passingOnCounts = false
        policy.classifyAssignment = { dest, source, names in
            // A token stored in a property is on its way (`self.token = hex`, `Messaging.messaging().apnsToken = token`).
            let target = dest.namePath.last ?? ""
            return !names.contains(target) && !source.mentionedNames.isDisjoint(with: names) ? .tracked : .none
        }
        var analyzer = PathAnalyzer(policy: policy, functions: functionsByName)
        analyzer.analyze(located.function)
        for observation in analyzer.observations.sorted() where observation.kind == .exitWithoutCall {
            findings.append(
                AuditFinding(
                    rule: .tokenUpload, path: located.path, location: observation.at,
                    message: "this path ends without sending the device token to the server"))
        }
        return findings
    }
}

/// Calls that only convert or log the token: they do not send it anywhere.
private let logging: Set<String> = ["print", "debugPrint", "NSLog", "os_log", "dump", "assert"]

/// Whether `call` sends a tracked value on: it gets one as an argument and is not a conversion of it
/// (a call on the token itself, `String(...)`) nor logging.
private func tokenSink(_ call: Call, _ names: Set<String>) -> Bool {
    let path = call.namePath
    if !Set(path).isDisjoint(with: names) || logging.contains(call.name) { return false }
    if path.count == 1, ["String", "NSString", "Data"].contains(call.name) { return false }
    if let first = path.first?.lowercased(), first.contains("log") { return false }
    return call.arguments.contains { argument in
        if case .closure = argument.value { return false }
        return !argument.value.mentionedNames.isDisjoint(with: names)
    }
}

/// Calls `body` with each `let`/`var` in `statements` (closures and nested blocks included).
func walkBindings(_ statements: [Statement], _ body: ([String], Expression) -> Void) {
    for statement in statements {
        if case .binding(let names, let value?, _) = statement { body(names, value) }
        for block in statement.blocks { walkBindings(block, body) }
        for expression in statement.expressions {
            expression.visit(enteringClosures: false) { inner in
                if case .closure(let closure) = inner { walkBindings(closure.body, body) }
            }
        }
    }
}
