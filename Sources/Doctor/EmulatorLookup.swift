import APNs

/// Reads what the emulator knows about one push (docs/EMULATOR.md, "Control API"): its delivery-log entry
/// (by apns-id, or by apns-unique-id), the pushes it accepted for the same token and app after it, the first
/// 410 for the token, and the simulated device behind the token.
public struct EmulatorLookup: Sendable {
    public let client: HTTPLookupClient

    public init(client: HTTPLookupClient) {
        self.client = client
    }

    /// The newest log entry whose apns-id or apns-unique-id is `id`.
    public func push(id: String) async throws(DoctorLookupError) -> LoggedPush {
        let wanted = id.lowercased()
        if let found = try await entries(query: "apns-id=\(Self.escape(wanted))").last { return found }
        // The log has no filter by unique id: walk it (a page examines at most 20,000 entries).
        if let found = try await entries(query: "").last(where: { $0.uniqueID?.lowercased() == wanted }) {
            return found
        }
        throw DoctorLookupError("the emulator's delivery log has no entry with apns-id or apns-unique-id \(id)")
    }

    /// Everything the doctor needs about `push`: the answer, the request, what came after it.
    public func evidence(for push: LoggedPush) async throws(DoctorLookupError) -> (
        answer: APNsAnswer, storage: StorageEvidence?
    ) {
        var answer = APNsAnswer(
            status: push.status, reason: push.reason.map(Reason.init(rawValue:)), receivedAt: push.receivedAt)
        guard let token = push.token else { return (answer, nil) }
        let device = try await device(token: token, topic: push.topic)
        answer.tokenEnvironment = device?.environment
        if push.status == 410 {
            answer.firstUnregisteredAt = try await entries(query: "token=\(Self.escape(token))&status=410", pages: 1)
                .first?.receivedAt
        }
        guard push.status == 200 else { return (answer, nil) }
        var query = "token=\(Self.escape(token))&status=200&since=\(push.receivedAt)"
        if let topic = push.topic { query += "&topic=\(Self.escape(topic))" }
        let later = try await entries(query: query).filter { entry in
            entry != push && !(entry.receivedAt == push.receivedAt && entry.apnsID == push.apnsID)
        }
        return (answer, StorageEvidence(push: push, later: later, deviceOnline: device?.online))
    }

    /// The simulated device that holds `token` (by `GET devices?topic=`), if there is one.
    func device(token: String, topic: String?) async throws(DoctorLookupError) -> (environment: String, online: Bool)? {
        var cursor: String?
        repeat {
            var query = "limit=1000"
            if let topic { query += "&topic=\(Self.escape(topic))" }
            if let cursor { query += "&cursor=\(Self.escape(cursor))" }
            let page = try await client.getJSON("/control/v1/devices?" + query)
            for device in page["devices"]?.arrayValue ?? [] where device["token"]?.stringValue == token {
                return (device["environment"]?.stringValue ?? "", device["online"]?.boolValue ?? false)
            }
            cursor = page["next-cursor"]?.stringValue
        } while cursor != nil
        return nil
    }

    /// The log entries matching `query`, oldest first, over at most `pages` pages.
    func entries(query: String, pages: Int = 100) async throws(DoctorLookupError) -> [LoggedPush] {
        var found: [LoggedPush] = []
        var cursor: String?
        var read = 0
        repeat {
            var path = "/control/v1/deliveries?limit=1000"
            if !query.isEmpty { path += "&" + query }
            if let cursor { path += "&cursor=\(Self.escape(cursor))" }
            let page = try await client.getJSON(path)
            for entry in page["deliveries"]?.arrayValue ?? [] {
                if let push = Self.loggedPush(entry) { found.append(push) }
            }
            cursor = page["next-cursor"]?.stringValue
            read += 1
        } while cursor != nil && read < pages
        return found
    }

    /// One entry of `GET /control/v1/deliveries`; nil when it lacks a status.
    static func loggedPush(_ entry: JSONValue) -> LoggedPush? {
        guard let status = entry["status"]?.intValue else { return nil }
        let payload: [UInt8] =
            switch entry["payload"] {
            case .string(let text)?: Array(text.utf8)
            case let value?: value.encoded()
            case nil: []
            }
        return LoggedPush(
            receivedAt: entry["received-at"]?.intValue ?? 0, token: entry["token"]?.stringValue,
            topic: entry["topic"]?.stringValue, pushType: entry["push-type"]?.stringValue,
            priority: entry["priority"]?.intValue, collapseID: entry["collapse-id"]?.stringValue,
            expiration: entry["expiration"]?.intValue, apnsID: entry["apns-id"]?.stringValue,
            uniqueID: entry["apns-unique-id"]?.stringValue, status: status, reason: entry["reason"]?.stringValue,
            payload: payload)
    }

    /// Percent-encodes a query value (ids and topics are plain, but nothing from outside goes in unescaped).
    static func escape(_ value: String) -> String {
        var escaped = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                escaped += "%"
                escaped.unicodeScalars.append(digits[Int(byte >> 4)])
                escaped.unicodeScalars.append(digits[Int(byte & 15)])
            }
        }
        return escaped
    }
}

extension LoggedPush {
    /// The request as the log shows it, for the linter and the device model (the time it was received is the
    /// linter's "now", so an expiration is judged as APNs judged it).
    public var lintRequest: LintRequest {
        LintRequest(
            payload: payload, pushType: pushType, topic: topic, priority: priority.map(String.init),
            expiration: expiration.map(String.init), collapseID: collapseID, apnsID: apnsID, token: token,
            now: receivedAt / 1000)
    }
}
