import APNs
import Foundation
import Testing

/// docs/GATEWAY.md's "JSON the API writes" tables against the API's real answers, as
/// `JSONFieldsTests` does for docs/JSON.md: no key the page does not list, every "always" key there.
@Suite(.timeLimit(.minutes(1)))
struct GatewayJSONFieldsTests {
    struct Field: Hashable {
        let path: String
        let always: Bool
    }

    /// The tables of docs/GATEWAY.md by output kind (the heading's `name`).
    static func documented() throws -> [String: [Field]] {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/GATEWAY.md")
        var kinds: [String: [Field]] = [:]
        var current: String?
        for line in try String(contentsOf: page, encoding: .utf8).split(separator: "\n") {
            if line.hasPrefix("### `") {
                current = String(line.dropFirst(5).prefix { $0 != "`" })
                kinds[current ?? ""] = []
            } else if line.hasPrefix("#") {
                current = nil
            } else if let kind = current, line.hasPrefix("| `") {
                let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                guard cells.count >= 3 else { continue }
                let path = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
                kinds[kind, default: []].append(Field(path: path, always: cells[2] == "always"))
            }
        }
        return kinds
    }

    /// Every key path in `value` (`a.b`, `a[].b`).
    static func paths(_ value: JSONValue, prefix: String = "") -> Set<String> {
        var found: Set<String> = []
        for member in value.objectValue?.members ?? [] {
            let path = prefix + member.key
            found.insert(path)
            if member.value.objectValue != nil {
                found.formUnion(paths(member.value, prefix: path + "."))
            } else if let array = member.value.arrayValue {
                for element in array where element.objectValue != nil {
                    found.formUnion(paths(element, prefix: path + "[]."))
                }
            }
        }
        return found
    }

    static func check(_ kind: String, _ samples: [JSONValue], against page: [String: [Field]]) {
        guard let fields = page[kind] else {
            Issue.record("docs/GATEWAY.md has no table for '\(kind)'")
            return
        }
        #expect(!samples.isEmpty, "no sample of '\(kind)'")
        let listed = Set(fields.map(\.path))
        for sample in samples {
            let found = paths(sample)
            for path in found.sorted() {
                // `a.*` in a table stands for any key of the object `a` (counts by reason).
                let wildcard = path.split(separator: ".").dropLast().joined(separator: ".") + ".*"
                #expect(
                    listed.contains(path) || listed.contains(wildcard),
                    "'\(kind)' writes '\(path)', which docs/GATEWAY.md does not list")
            }
            for field in fields where field.always {
                let parent = field.path.split(separator: ".").dropLast().joined(separator: ".")
                let parentPresent =
                    parent.isEmpty || found.contains(parent) || found.contains { $0.hasPrefix(parent + ".") }
                guard parentPresent else { continue }
                #expect(found.contains(field.path), "'\(kind)' lacks '\(field.path)', listed as always: \(sample)")
            }
        }
    }

    @Test func everyAPIOutputHasTheDocumentedFields() async throws {
        let page = try Self.documented()
        #expect(
            Set(page.keys) == [
                "gateway-device", "gateway-devices", "gateway-error", "gateway-health",
                // Produced by GatewayLiveActivityJSONFieldsTests:
                "gateway-push-to-start-token", "gateway-push-to-start-tokens", "gateway-activity", "gateway-channel",
                "gateway-channels",
                // Produced by GatewayNotificationJSONFieldsTests:
                "gateway-notification-created", "gateway-notification", "gateway-deliveries", "gateway-lint",
                "gateway-lint-refusal",
                // Produced by GatewayConsoleRoutesTests:
                "gateway-apps", "gateway-notifications", "gateway-preview",
                // Produced by GatewayMetricsHistoryTests:
                "gateway-metrics-history",
                // Produced by GatewayLiveActivityListRouteTests:
                "gateway-activities",
            ])
        try await GatewayAPIFixture.with(.memory) { gateway in
            let device = "/v1/apps/\(GatewayAPIFixture.app)/devices/" + String(repeating: "0a", count: 32)
            let bare = "/v1/apps/\(GatewayAPIFixture.app)/devices/" + String(repeating: "0b", count: 32)
            let full = try await gateway.request(
                "PUT", device, key: gateway.register,
                body: #"{"user":"u","tags":["t"],"locale":"en","app-version":"1"}"#,
                over: .http1)
            let empty = try await gateway.request(
                "PUT", bare, key: gateway.register, body: #"{"user":"u"}"#, over: .http2)
            let read = try await gateway.request("GET", device, key: gateway.send, over: .http1)
            Self.check("gateway-device", [full.json, empty.json, read.json].compactMap { $0 }, against: page)
            let listed = try await gateway.request(
                "GET", "/v1/apps/\(GatewayAPIFixture.app)/users/u/devices", key: gateway.send, over: .http2)
            #expect(listed.json?["devices"]?.arrayValue?.count == 2)
            Self.check("gateway-devices", [listed.json].compactMap { $0 }, against: page)
            let errors = [
                try await gateway.request("GET", "/nope", key: nil, over: .http1),
                try await gateway.request("PUT", device, key: nil, over: .http1),
                try await gateway.request("POST", device, key: gateway.admin, over: .http2),
            ]
            Self.check("gateway-error", errors.compactMap(\.json), against: page)
            #expect(errors.compactMap(\.json).count == 3)
            let health = try await gateway.request("GET", "/healthz", key: nil, over: .http1)
            Self.check("gateway-health", [health.json].compactMap { $0 }, against: page)
        }
    }
}
