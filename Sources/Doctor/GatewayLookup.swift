import APNs

/// Reads a gateway notification (docs/GATEWAY.md, `GET /v1/notifications/{id}` and its deliveries) and the
/// device a delivery went to, as far as the gateway's API gives them.
public struct GatewayLookup: Sendable {
    public let client: HTTPLookupClient

    public init(client: HTTPLookupClient) {
        self.client = client
    }

    /// One delivery of a gateway notification.
    public struct GatewayDelivery: Sendable, Hashable {
        public var token: String
        public var environment: String
        public var apnsID: String
        public var status: String
        public var reason: String?
        public var attempts: Int
        public var lastAttemptAt: Int?

        public init(
            token: String, environment: String, apnsID: String, status: String, reason: String? = nil,
            attempts: Int = 1, lastAttemptAt: Int? = nil
        ) {
            self.token = token
            self.environment = environment
            self.apnsID = apnsID
            self.status = status
            self.reason = reason
            self.attempts = attempts
            self.lastAttemptAt = lastAttemptAt
        }
    }

    /// One earlier delivery to the chosen device, from its history (any notification of the app).
    public struct HistoryEntry: Sendable, Hashable {
        public var notificationID: String
        public var status: String
        public var reason: String?
        public var lastAttemptAt: Int?

        public init(notificationID: String, status: String, reason: String? = nil, lastAttemptAt: Int? = nil) {
            self.notificationID = notificationID
            self.status = status
            self.reason = reason
            self.lastAttemptAt = lastAttemptAt
        }
    }

    /// What the gateway knows: the notification's app and state, the delivery chosen, and the device's record
    /// and history.
    public struct Evidence: Sendable {
        public var bundleID: String
        public var state: String
        public var deliveries: [GatewayDelivery]
        /// The delivery diagnosed: the one to `token` when given, else the first that failed, else the first.
        public var chosen: GatewayDelivery?
        /// The gateway's record of the chosen delivery's device (`status`, `status-reason`, `registered-at`).
        public var device: JSONValue?
        /// The device's latest deliveries, newest first (`historyLimit` at most), this notification's included.
        public var history: [HistoryEntry]

        public init(
            bundleID: String, state: String, deliveries: [GatewayDelivery], chosen: GatewayDelivery?,
            device: JSONValue? = nil, history: [HistoryEntry] = []
        ) {
            self.bundleID = bundleID
            self.state = state
            self.deliveries = deliveries
            self.chosen = chosen
            self.device = device
            self.history = history
        }
    }

    /// How many of the device's latest deliveries are read.
    public static let historyLimit = 50

    public func evidence(notification id: String, token: String?) async throws(DoctorLookupError) -> Evidence {
        let escaped = EmulatorLookup.escape(id)
        let notification = try await client.getJSON("/v1/notifications/\(escaped)")
        let bundleID = notification["bundle-id"]?.stringValue ?? ""
        var deliveries: [GatewayDelivery] = []
        var cursor: String?
        repeat {
            var path = "/v1/notifications/\(escaped)/deliveries?limit=1000"
            if let cursor { path += "&cursor=\(EmulatorLookup.escape(cursor))" }
            let page = try await client.getJSON(path)
            for entry in page["deliveries"]?.arrayValue ?? [] {
                guard let token = entry["token"]?.stringValue, let apnsID = entry["apns-id"]?.stringValue else {
                    continue
                }
                deliveries.append(
                    GatewayDelivery(
                        token: token, environment: entry["environment"]?.stringValue ?? "", apnsID: apnsID,
                        status: entry["status"]?.stringValue ?? "", reason: entry["reason"]?.stringValue,
                        attempts: entry["attempts"]?.intValue ?? 0, lastAttemptAt: entry["last-attempt-at"]?.intValue))
            }
            cursor = page["next-cursor"]?.stringValue
        } while cursor != nil
        let chosen =
            if let token { deliveries.first { $0.token == token.lowercased() } } else {
                deliveries.first { $0.status == "failed" } ?? deliveries.first
            }
        var device: JSONValue?
        var history: [HistoryEntry] = []
        if let chosen, !bundleID.isEmpty {
            let devicePath =
                "/v1/apps/\(EmulatorLookup.escape(bundleID))/devices/\(EmulatorLookup.escape(chosen.token))"
            let (status, body) = try await client.get(devicePath)
            if status == 200 { device = try? JSONValue(parsing: body) }
            // A gateway without the history route (older than the console's) answers 404: no history then.
            let (historyStatus, historyBody) = try await client.get(
                devicePath + "/deliveries?limit=\(Self.historyLimit)")
            if historyStatus == 200, let page = try? JSONValue(parsing: historyBody) {
                history = (page["deliveries"]?.arrayValue ?? []).compactMap { entry in
                    entry["notification-id"]?.stringValue.map { id in
                        HistoryEntry(
                            notificationID: id, status: entry["status"]?.stringValue ?? "",
                            reason: entry["reason"]?.stringValue, lastAttemptAt: entry["last-attempt-at"]?.intValue)
                    }
                }
            }
        }
        return Evidence(
            bundleID: bundleID, state: notification["state"]?.stringValue ?? "", deliveries: deliveries,
            chosen: chosen, device: device, history: history)
    }
}

extension GatewayLookup.Evidence {
    /// The gateway's side as findings: the notification's state, the chosen delivery, the device's record.
    public var findings: [DoctorFinding] {
        var findings: [DoctorFinding] = []
        let failed = deliveries.filter { $0.status == "failed" }.count
        findings.append(
            DoctorFinding(
                .answer, .note, id: "GATEWAY-NOTIFICATION",
                "gateway notification for \(bundleID): \(state), \(deliveries.count) deliver"
                    + "\(deliveries.count == 1 ? "y" : "ies"), \(failed) failed"))
        guard let chosen else {
            findings.append(
                DoctorFinding(
                    .answer, .cause, id: "GATEWAY-NO-DELIVERY", "the gateway made no delivery for it (no recipient)",
                    fix: "Check the recipients: the tokens, users or tags named must have active devices of the app."))
            return findings
        }
        if chosen.status == "pending" {
            findings.append(
                DoctorFinding(
                    .answer, .cause, id: "GATEWAY-PENDING",
                    "the delivery to \(chosen.token) is still pending after \(chosen.attempts) attempt(s)"
                        + (chosen.reason.map { ", the last failing with \($0)" } ?? ""),
                    fix: "Wait for the gateway's retries, or check that it reaches APNs."))
        } else if chosen.status == "failed", let reason = chosen.reason, !Reason(rawValue: reason).isDocumented {
            // The gateway's own reasons (no answer from APNs): docs/GATEWAY.md, "Delivery".
            findings.append(
                DoctorFinding(
                    .answer, .cause, id: reason,
                    "the gateway gave up on the delivery to \(chosen.token) without an answer from APNs: \(reason)",
                    fix:
                        "See \(reason) in docs/GATEWAY.md (\"Delivery\"); the web console explains it on the delivery's row."
                ))
        } else if chosen.status == "cancelled" {
            findings.append(
                DoctorFinding(
                    .answer, .cause, id: "GATEWAY-CANCELLED", "the delivery to \(chosen.token) was cancelled",
                    fix: "Send it again."))
        }
        if let device, let status = device["status"]?.stringValue, status != "active" {
            let reason = device["status-reason"]?.stringValue.map { ": \($0)" } ?? ""
            findings.append(
                DoctorFinding(.answer, .note, id: "GATEWAY-DEVICE", "the gateway holds the token as \(status)\(reason)")
            )
        }
        if let summary = historySummary {
            findings.append(DoctorFinding(.answer, .note, id: "GATEWAY-DEVICE-HISTORY", summary))
        }
        return findings
    }

    /// APNs's answer as the gateway recorded it, when the delivery settled.
    public var answer: APNsAnswer? {
        guard let chosen else { return nil }
        switch chosen.status {
        case "succeeded": return APNsAnswer(status: 200, receivedAt: chosen.lastAttemptAt)
        case "failed":
            guard let reason = chosen.reason.map(Reason.init(rawValue:)), let status = reason.status else { return nil }
            return APNsAnswer(status: status, reason: reason, receivedAt: chosen.lastAttemptAt)
        default: return nil
        }
    }

    /// The device's history in a line: its latest deliveries by outcome, the last one that succeeded and
    /// the first failure since (what pruned it, when it was pruned).
    var historySummary: String? {
        guard !history.isEmpty else { return nil }
        let succeeded = history.filter { $0.status == "succeeded" }.count
        let failed = history.filter { $0.status == "failed" }
        var parts = [
            "the device's latest \(history.count) deliver\(history.count == 1 ? "y" : "ies"): \(succeeded) succeeded"
        ]
        if !failed.isEmpty {
            let reasons = Set(failed.compactMap(\.reason)).sorted().joined(separator: ", ")
            parts.append("\(failed.count) failed" + (reasons.isEmpty ? "" : " (\(reasons))"))
        }
        // Newest first: the last success is the first one listed; the failures before it came after it.
        if let last = history.firstIndex(where: { $0.status == "succeeded" }) {
            let entry = history[last]
            parts.append("the last success: notification \(entry.notificationID)" + Self.at(entry.lastAttemptAt))
            if let firstFailure = history[..<last].last(where: { $0.status == "failed" }) {
                parts.append(
                    "failing since notification \(firstFailure.notificationID)" + Self.at(firstFailure.lastAttemptAt)
                        + (firstFailure.reason.map { " (\($0))" } ?? ""))
            }
        } else {
            parts.append("none succeeded")
        }
        return parts.joined(separator: "; ")
    }

    private static func at(_ milliseconds: Int?) -> String {
        milliseconds.map { " at \(Doctor.utc($0))" } ?? ""
    }
}
