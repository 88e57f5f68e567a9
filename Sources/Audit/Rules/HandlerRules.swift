// Handlers the system waits for: AUDIT-FETCH-HANDLER, AUDIT-NSE-HANDLER, AUDIT-NSE-EXPIRE, AUDIT-VOIP-REPORT.

extension AppModel {
    func handlerFindings() -> [AuditFinding] {
        var findings: [AuditFinding] = []
        for located in functions(named: "application(_:didReceiveRemoteNotification:fetchCompletionHandler:)")
        where located.function.parameters.count == 3 {
            findings += handlerFindings(located, handlerIndex: 2, rule: .fetchHandler, handlerName: "completionHandler")
        }
        var seen = Set<String>()
        for (type, path) in types where type.inherits.contains("UNNotificationServiceExtension") {
            guard seen.insert(type.name).inserted else { continue }
            findings += serviceExtensionFindings(type: type, path: path)
        }
        for located in functions(named: "pushRegistry(_:didReceiveIncomingPushWith:for:completion:)")
            + functions(named: "pushRegistry(_:didReceiveIncomingPushWith:for:)")
        {
            findings += voipFindings(located)
        }
        return findings
    }

    private func serviceExtensionFindings(type: TypeDecl, path: String) -> [AuditFinding] {
        var findings: [AuditFinding] = []
        let members = functions(ofType: type.name)
        var stored = Set<String>()
        for located in members where located.function.fullName == "didReceive(_:withContentHandler:)" {
            guard located.function.parameters.count == 2 else { continue }
            let handler = located.function.parameters[1].name
            // `self.contentHandler = contentHandler`: the property is the handler too.
            for statement in located.function.body {
                statement.visit { expression in
                    if case .assignment(let dest, .name(handler, _)) = expression, let last = dest.namePath.last {
                        stored.insert(last)
                    }
                }
            }
            findings += handlerFindings(
                located, handlerIndex: 1, rule: .serviceHandler, handlerName: handler, stored: stored)
        }
        guard let expire = members.first(where: { $0.function.fullName == "serviceExtensionTimeWillExpire()" }) else {
            findings.append(
                AuditFinding(
                    rule: .serviceExpire, path: path, location: type.location,
                    message: "\(type.name) does not implement serviceExtensionTimeWillExpire()"))
            return findings
        }
        let policy = PathPolicy(names: stored) { call, names in
            let path = call.namePath
            guard let last = path.last, names.contains(last) else { return .none }
            return path.count == 1 || (path.count == 2 && path[0] == "self") ? .tracked : .none
        }
        var analyzer = PathAnalyzer(policy: policy, functions: functionsByName)
        analyzer.analyze(expire.function)
        if analyzer.exitsWithCall == 0 {
            findings.append(
                AuditFinding(
                    rule: .serviceExpire, path: expire.path, location: expire.function.location,
                    message: "serviceExtensionTimeWillExpire() never calls the stored content handler"))
        }
        return findings
    }

    private func voipFindings(_ located: Located) -> [AuditFinding] {
        let parameters = located.function.parameters
        let completion = parameters.count == 4 ? [parameters[3].name] : []
        var policy = PathPolicy(names: Set(completion)) { call, names in
            if call.name == "reportNewIncomingCall" || call.name == "reportNewIncomingVoIPPushPayload" {
                return .prerequisite
            }
            let path = call.namePath
            guard let last = path.last, names.contains(last), path.count == 1 else { return .none }
            return .tracked
        }
        policy.tracksPrerequisite = true
        var analyzer = PathAnalyzer(policy: policy, functions: functionsByName)
        analyzer.analyze(located.function)
        return analyzer.observations.sorted().compactMap { observation in
            let message: String
            switch observation.kind {
            case .exitWithoutPrerequisite: message = "this path ends without reporting an incoming call to CallKit"
            case .callBeforePrerequisite: message = "the completion is called before the call is reported to CallKit"
            default: return nil
            }
            return AuditFinding(rule: .voipReport, path: located.path, location: observation.at, message: message)
        }
    }
}
