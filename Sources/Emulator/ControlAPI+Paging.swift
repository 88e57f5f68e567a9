// The control API's lists a page at a time: `limit` entries (default 100, at most 1000) and, when
// more may follow, `next-cursor`, an opaque string to pass back as `cursor=` for the next page.
// No answer holds more than a page, and no page examines more than `DeliveryLog.pageScanLimit`
// log entries: a held request cannot make the event loop build the whole log.
//
//   deliveries: the cursor is the number of the next entry to examine (oldest first); a page of a
//               sparse filter may hold fewer than `limit` entries and still have a next-cursor.
//   devices:    the cursor is the last token given (devices by token order).
// Faults need no paging: at most `EmulatorConfiguration.faultLimit` are declared.

import APNs
import HTTP2

extension ControlAPI {
    /// Entries per page when `limit` is not given.
    static let defaultPageLimit = 100
    /// The largest `limit` accepted.
    static let maximumPageLimit = 1000

    func listDeliveries(_ query: [String: String], _ responder: HTTP2Responder) throws(ControlRequestError) {
        var filter = try DeliveryFilter(query: query)
        let limit = filter.limit ?? Self.defaultPageLimit
        filter.limit = nil
        let start = try Self.cursor(query) { Int($0).flatMap { $0 > 0 ? $0 : nil } }
        let page = log.page(matching: filter, from: start, limit: limit)
        var object = JSONObject([
            .init(key: "total", value: .number(JSONNumber(log.totalCount))),
            .init(key: "deliveries", value: .array(page.entries.map(Self.json))),
        ])
        if let next = page.next { object["next-cursor"] = .string(String(next)) }
        Self.json(responder, 200, .object(object))
    }

    func listDevices(_ query: [String: String], _ responder: HTTP2Responder) throws(ControlRequestError) {
        let known: Set = ["topic", "limit", "cursor"]
        if let unknown = query.keys.sorted().first(where: { !known.contains($0) }) {
            throw ControlRequestError(field: unknown, "is not a parameter (known: cursor, limit, topic)")
        }
        if query["topic"]?.isEmpty == true {
            throw ControlRequestError(
                field: "topic", "needs a value (topic=BUNDLE_ID); leave it out to list every device")
        }
        let limit = try Self.pageLimit(query)
        let after = try Self.cursor(query) { text in (try? DeviceToken(hex: text)).map { _ in text.lowercased() } }
        let page: (summaries: [DeviceRegistry.Summary], next: String?) =
            devices?.summaries(bundleID: query["topic"], after: after, limit: limit) ?? ([], nil)
        var object = JSONObject([.init(key: "devices", value: .array(page.summaries.map(\.json)))])
        if let next = page.next { object["next-cursor"] = .string(next) }
        Self.json(responder, 200, .object(object))
    }

    /// `limit`: a whole number from 1 to ``maximumPageLimit``; ``defaultPageLimit`` when absent.
    static func pageLimit(_ query: [String: String]) throws(ControlRequestError) -> Int {
        guard let text = query["limit"] else { return defaultPageLimit }
        guard let value = Int(text), (1...maximumPageLimit).contains(value) else {
            throw ControlRequestError(
                field: "limit", "must be a whole number from 1 to \(maximumPageLimit), not '\(text)'")
        }
        return value
    }

    /// `cursor`, read by `parse` (nil: not a cursor this list gave).
    static func cursor<Value>(_ query: [String: String], _ parse: (String) -> Value?) throws(ControlRequestError)
        -> Value?
    {
        guard let text = query["cursor"] else { return nil }
        guard let value = parse(text) else {
            throw ControlRequestError(
                field: "cursor", "must be the next-cursor of an earlier answer, passed back unchanged, not '\(text)'")
        }
        return value
    }
}
