/// The regular headers of a request, one value per name (names compared in ASCII lowercase, as
/// HTTP/2 sends them), and whether any name came twice. The broadcast and channel validators read
/// headers through this.
struct HeaderFields {
    private(set) var values: [String: String] = [:]
    private(set) var repeatedNames: Set<String> = []

    init(_ headers: [(name: String, value: String)]) {
        for header in headers {
            let name = header.name.lowercased()
            if values[name] == nil { values[name] = header.value } else { repeatedNames.insert(name) }
        }
    }

    subscript(name: String) -> String? { values[name] }

    /// The request id every answer carries: the request's `apns-request-id` (lowercase) when it sent
    /// exactly one valid one, else a generated one; `malformed` when it sent a bad one.
    func requestID() -> (id: String, malformed: Bool) {
        guard let value = values["apns-request-id"] else { return (APNsID.random().value, false) }
        if repeatedNames.contains("apns-request-id") { return (APNsID.random().value, true) }
        guard let id = try? APNsID(value) else { return (APNsID.random().value, true) }
        return (id.value, false)
    }
}

extension PushRejection {
    /// The rejection APNs answers with `reason`: its status from `Reason.table` (400 for a reason
    /// outside it), echoing `id` (an `apns-id` or `apns-request-id`).
    public init(_ reason: Reason, id: String) {
        self.init(status: reason.status ?? 400, reason: reason, apnsID: id)
    }
}
