// The notification center's delegate and categories: AUDIT-DELEGATE-LATE, AUDIT-DELEGATE-UNSET,
// AUDIT-WILL-PRESENT, AUDIT-DID-RECEIVE, AUDIT-DELEGATE-HANDLER, AUDIT-CATEGORIES.

extension AppModel {
    func delegateFindings() -> [AuditFinding] {
        var findings: [AuditFinding] = []
        let reached = launchReachable
        let centers = notificationCenterNames
        var assignments = 0
        for located in functions {
            walk(located.function.body, WalkContext()) { expression, context in
                switch expression {
                case .assignment(.member(let base?, "delegate", let at), _):
                    // The center by its type, by a name bound to it, or by a name that says it is one
                    // (`notificationCenter`, injected or computed where the audit cannot see its value).
                    let path = base.namePath
                    let last = path.last ?? ""
                    guard
                        path.contains("UNUserNotificationCenter") || centers.contains(last)
                            || last.lowercased().hasSuffix("center")
                    else { return }
                    assignments += 1
                    if context.isInClosure || !isLaunchReachable(located.function, in: reached) {
                        findings.append(
                            AuditFinding(
                                rule: .delegateLate, path: located.path, location: at,
                                message: "the notification center's delegate is set in \(located.function.fullName)"
                                    + (context.isInClosure
                                        ? ", inside a closure that runs later" : ", which does not run at launch")))
                    }
                case .call(let call) where call.name == "setNotificationCategories":
                    if context.isInClosure || !isLaunchReachable(located.function, in: reached) {
                        findings.append(
                            AuditFinding(
                                rule: .categories, path: located.path, location: call.location,
                                message: "categories are registered in \(located.function.fullName)"
                                    + (context.isInClosure
                                        ? ", inside a closure that runs later" : ", which does not run at launch")))
                    }
                default:
                    break
                }
            }
        }
        findings += categoriesNeverRegistered()
        var seen = Set<String>()
        for (type, path) in types where type.inherits.contains("UNUserNotificationCenterDelegate") {
            guard seen.insert(type.name).inserted else { continue }
            let names = Set(functions(ofType: type.name).map(\.function.fullName))
            if assignments == 0 {
                findings.append(
                    AuditFinding(
                        rule: .delegateUnset, path: path, location: type.location,
                        message:
                            "\(type.name) is a UNUserNotificationCenterDelegate, but no code sets the notification center's delegate"
                    ))
            }
            if names.isDisjoint(with: [
                "userNotificationCenter(_:willPresent:withCompletionHandler:)",
                "userNotificationCenter(_:willPresent:)",
            ]) {
                findings.append(
                    AuditFinding(
                        rule: .willPresent, path: path, location: type.location,
                        message:
                            "\(type.name) does not implement userNotificationCenter(_:willPresent:withCompletionHandler:)"
                    ))
            }
            if names.isDisjoint(with: [
                "userNotificationCenter(_:didReceive:withCompletionHandler:)", "userNotificationCenter(_:didReceive:)",
            ]) {
                findings.append(
                    AuditFinding(
                        rule: .didReceive, path: path, location: type.location,
                        message:
                            "\(type.name) does not implement userNotificationCenter(_:didReceive:withCompletionHandler:)"
                    ))
            }
        }
        for name in [
            "userNotificationCenter(_:willPresent:withCompletionHandler:)",
            "userNotificationCenter(_:didReceive:withCompletionHandler:)",
        ] {
            for located in functions(named: name) where located.function.parameters.count == 3 {
                findings += handlerFindings(
                    located, handlerIndex: 2, rule: .delegateHandler, handlerName: "completionHandler")
            }
        }
        return findings
    }

    /// Names bound to `UNUserNotificationCenter.current()` anywhere in the app.
    private var notificationCenterNames: Set<String> {
        var names = Set<String>()
        func check(_ bound: [String], _ value: Expression) {
            if value.namePath.contains("UNUserNotificationCenter") { names.formUnion(bound) }
        }
        for located in functions { walkBindings(located.function.body, check) }
        for (type, _) in types { walkBindings(type.propertyBindings, check) }
        return names
    }

    /// UNNotificationCategory built, but setNotificationCategories never called.
    private func categoriesNeverRegistered() -> [AuditFinding] {
        var built: (path: String, at: SourceLocation)?
        var registered = false
        for located in functions {
            walk(located.function.body, WalkContext()) { expression, _ in
                guard case .call(let call) = expression else { return }
                if call.name == "setNotificationCategories" { registered = true }
                if call.name == "UNNotificationCategory", built == nil { built = (located.path, call.location) }
            }
        }
        guard let built, !registered else { return [] }
        return [
            AuditFinding(
                rule: .categories, path: built.path, location: built.at,
                message: "a UNNotificationCategory is built, but setNotificationCategories(_:) is never called")
        ]
    }

    /// AUDIT-DELEGATE-HANDLER, AUDIT-FETCH-HANDLER, AUDIT-NSE-HANDLER: the handler parameter at
    /// `handlerIndex` (and the properties it is stored in) is called exactly once on every path.
    func handlerFindings(
        _ located: Located, handlerIndex: Int, rule: AuditRule, handlerName: String, stored: Set<String> = []
    ) -> [AuditFinding] {
        let handler = located.function.parameters[handlerIndex].name
        let policy = PathPolicy(names: stored.union([handler])) { call, names in
            let path = call.namePath
            guard let last = path.last, names.contains(last) else { return .none }
            return path.count == 1 || (path.count == 2 && path[0] == "self") ? .tracked : .none
        }
        var analyzer = PathAnalyzer(policy: policy, functions: functionsByName)
        analyzer.analyze(located.function)
        return analyzer.observations.sorted().compactMap { observation in
            let message: String
            switch observation.kind {
            case .secondCall: message = "\(handlerName) is called a second time on this path"
            case .exitWithoutCall:
                message = "this path of \(located.function.fullName) ends without calling \(handlerName)"
            default: return nil
            }
            return AuditFinding(rule: rule, path: located.path, location: observation.at, message: message)
        }
    }
}
