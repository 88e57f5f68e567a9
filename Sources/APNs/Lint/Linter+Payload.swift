// Rules on the payload as bytes and as a JSON document: empty, not JSON, too large, not an object,
// duplicate keys, missing aps, and the type of every documented key.

extension LintContext {
    mutating func checkPayloadBytes() {
        guard !request.payload.isEmpty else {
            report(.payloadEmpty, "payload", "the payload is empty", fix: "send at least {\"aps\":{}}")
            return
        }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: request.payload)
        } catch {
            report(.payloadJSON, "payload", error.description)
            return
        }
        guard let object = value.objectValue else {
            report(.payloadNotObject, "payload", "the payload is \(value.kindDescription), not an object", fix: "wrap it: {\"aps\":{…}}")
            return
        }
        root = object
        if let apsValue = object["aps"] {
            if let apsObject = apsValue.objectValue {
                aps = apsObject
            } else {
                report(.apsNotObject, "aps", "aps is \(apsValue.kindDescription), not a dictionary", fix: "use {\"aps\":{\"alert\":…}}")
            }
        }
    }

    mutating func checkSize() {
        let size = request.payload.count
        let limit = payloadLimit
        guard size > limit else { return }
        let what: String =
            switch request.destination {
            case .broadcast: "broadcasts"
            case .simulatorFile: "simulator files"
            case .device: "\(pushType ?? .alert) pushes"
            }
        var fix = "remove \(size - limit) bytes: shorten text, move data to your server and fetch it in the app"
        if let root {
            let compact = JSONValue.object(root).encoded().count
            if compact <= limit { fix = "without whitespace it is \(compact) bytes: send it compact" }
        }
        report(.payloadTooLarge, "payload", "the payload is \(size) bytes; \(what) allow at most \(limit)", fix: fix)
    }

    mutating func checkStructure() {
        guard let root else { return }
        checkDuplicates(in: root, path: "")
        if root["aps"] == nil, let pushType, pushType.requiresAPS {
            report(.payloadNoAPS, "aps", "the payload has no aps dictionary, so the system has nothing to act on",
                   fix: "add {\"aps\":{…}}; your own keys go beside it")
        }
        guard let aps else { return }
        for member in aps {
            let path = "aps.\(member.key)"
            guard let kind = APSSchema.aps[member.key] else {
                report(.apsUnknownKey, path, "'\(member.key)' is not an aps key; APNs and the device ignore it",
                       fix: "move it beside aps at the top level of the payload")
                continue
            }
            checkType(member.value, kind, path)
        }
        if let alert = aps["alert"]?.objectValue {
            for member in alert {
                let path = "aps.alert.\(member.key)"
                guard let kind = APSSchema.alert[member.key], member.key != "sound" || isLiveActivity else {
                    report(.alertUnknownKey, path, "'\(member.key)' is not an alert key; the device ignores it",
                           fix: "use title, subtitle, body or their -loc-key/-loc-args forms")
                    continue
                }
                if APSSchema.legacyAlertKeys.contains(member.key) {
                    report(.legacyKey, path, "'\(member.key)' is a legacy key that current systems ignore")
                }
                var allowed = kind
                if !isLiveActivity { allowed.remove(.localizedText) }
                checkType(member.value, allowed, path)
            }
        }
        if let sound = aps["sound"]?.objectValue {
            for member in sound {
                if let kind = APSSchema.sound[member.key] {
                    checkType(member.value, kind, "aps.sound.\(member.key)")
                } else {
                    report(.apsUnknownKey, "aps.sound.\(member.key)", "'\(member.key)' is not a sound key; use critical, name and volume")
                }
            }
        }
    }

    private mutating func checkType(_ value: JSONValue, _ kind: ValueKind, _ path: String) {
        guard !kind.accepts(value) else { return }
        if let elements = value.arrayValue, kind.contains(.stringArray),
            let bad = elements.firstIndex(where: { $0.stringValue == nil })
        {
            report(.apsType, "\(path)[\(bad)]", "must be a string, not \(elements[bad].kindDescription) (\(elements[bad].encodedString))",
                   fix: "quote every argument: [\"3\"], not [3]")
            return
        }
        report(
            .apsType, path, "must be \(kind.expectation), not \(value.kindDescription) (\(brief(value)))",
            fix: "write \(path) as \(kind.expectation)")
    }

    private mutating func checkDuplicates(in object: JSONObject, path: String) {
        for key in object.duplicateKeys {
            let where_ = path.isEmpty ? key : "\(path).\(key)"
            report(.duplicateKey, where_, "'\(key)' appears more than once; receivers keep only one of them (usually the last)",
                   fix: "keep one")
        }
        for member in object {
            if let child = member.value.objectValue {
                checkDuplicates(in: child, path: path.isEmpty ? member.key : "\(path).\(member.key)")
            }
        }
    }
}

/// A short rendering of a value for a message.
func brief(_ value: JSONValue) -> String {
    let text = value.encodedString
    return text.count <= 40 ? text : String(text.prefix(37)) + "…"
}
