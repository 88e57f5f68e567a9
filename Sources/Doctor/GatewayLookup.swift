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

    /// What the gateway knows: the notification's app and state, the delivery chosen, and the device's record.
    public struct Evidence: Sendable {
        public var bundleID: String
        public var state: String
        public var deliveries: [GatewayDelivery]
        /// The delivery diagnosed: the one to `token` when given, else the first that failed, else the first.
        public var chosen: GatewayDelivery?
        /// The gateway's record of the chosen delivery's device (`status`, `status-reason`, `registered-at`).
        public var device: JSONValue?

        public init(
            bundleID: String, state: String, deliveries: [GatewayDelivery], chosen: GatewayDelivery?,
            device: JSONValue? = nil
        ) {
            self.bundleID = bundleID
            self.state = state
            self.deliveries = deliveries
            self.chosen = chosen
            self.device = device
        }
    }

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
        if let chosen, !bundleID.isEmpty {
            let (status, body) = try await client.get(
                "/v1/apps/\(EmulatorLookup.escape(bundleID))/devices/\(EmulatorLookup.escape(chosen.token))")
            if status == 200 { device = try? JSONValue(parsing: body) }
        }
        return Evidence(
            bundleID: bundleID, state: notification["state"]?.stringValue ?? "", deliveries: deliveries,
            chosen: chosen, device: device)
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
}
