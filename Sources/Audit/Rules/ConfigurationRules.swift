// Info.plist and entitlements: AUDIT-BACKGROUND-MODE, AUDIT-APS-ENVIRONMENT.

extension AppModel {
    func configurationFindings(infoPlists: [PropertyList], entitlements: [PropertyList]) -> [AuditFinding] {
        var findings: [AuditFinding] = []
        let silent =
            functions(named: "application(_:didReceiveRemoteNotification:fetchCompletionHandler:)")
            + functions(named: "application(_:didReceiveRemoteNotification:)")
        if let first = silent.first, !infoPlists.isEmpty {
            let hasMode = infoPlists.contains { plist in
                if case .strings(let modes)? = plist.entries["UIBackgroundModes"]?.value {
                    return modes.contains("remote-notification")
                }
                return false
            }
            if !hasMode {
                findings.append(
                    AuditFinding(
                        rule: .backgroundMode, path: first.path, location: first.function.location,
                        message: "didReceiveRemoteNotification is implemented, but UIBackgroundModes in "
                            + infoPlists.map(\.path).joined(separator: ", ") + " has no remote-notification"))
            }
        }
        var registers = false
        for located in functions {
            for statement in located.function.body {
                statement.visit {
                    if case .call(let call) = $0, call.name == "registerForRemoteNotifications" { registers = true }
                }
            }
        }
        guard registers, !entitlements.isEmpty else { return findings }
        var valid = false
        for plist in entitlements {
            guard let entry = plist.entries["aps-environment"] else { continue }
            if case .string(let value) = entry.value, value == "development" || value == "production" {
                valid = true
            } else {
                findings.append(
                    AuditFinding(
                        rule: .apsEnvironment, path: plist.path, location: SourceLocation(line: entry.line, column: 1),
                        message: "aps-environment must be the string development or production"))
                return findings
            }
        }
        if !valid {
            let plist = entitlements[0]
            findings.append(
                AuditFinding(
                    rule: .apsEnvironment, path: plist.path, location: SourceLocation(line: 1, column: 1),
                    message: "the app calls registerForRemoteNotifications(), but "
                        + entitlements.map(\.path).joined(separator: ", ") + " has no aps-environment"))
        }
        return findings
    }
}
