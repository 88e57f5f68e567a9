import APNs

/// `reasons.json`, served beside the console's assets: every reason of the one reason table
/// (`Reason.allDocumented`) with its status, Apple's meaning and what to do about it, plus the
/// reasons the gateway itself records, so that a delivery row can explain its reason.
enum ConsoleReasons {
    /// Reasons the gateway's delivery engine records when APNs gave none (docs/GATEWAY.md, "Delivery").
    static let gatewayReasons: [(reason: String, summary: String, fix: String)] = [
        (
            "TokenNotActive",
            "The gateway holds this token as not active: a 410 or 400 pruned it after the send was made.",
            "Nothing to do: the app registers again with a fresh token on its next launch."
        ),
        (
            "NoClientForEnvironment", "The gateway has no APNs credentials for this app in the delivery's environment.",
            "Configure the app for that environment (--config), or register the device in the environment you have."
        ),
        (
            "TransportFailure", "The connection to APNs failed before an answer came.",
            "Temporary: the gateway retries with backoff. Check that APNs (or the emulator) is reachable."
        ),
        ("Timeout", "APNs did not answer in time.", "Temporary: the gateway retries with backoff."),
        (
            "ClientCredentials", "The provider token could not be signed, or the client is misconfigured.",
            "Fix the key, key id and team id (or the certificate) and restart; pending deliveries are retried."
        ),
        (
            "InvalidNotification", "The APNs client refused to send the notification as it was built.",
            "Lint the payload and headers (POST /v1/lint) and fix what it reports."
        ),
    ]

    /// What to do about a documented reason, from the table's columns.
    static func fix(_ info: ReasonInfo) -> String {
        if info.prunesToken {
            return info.status == 410
                ? "Stop sending to this token: it is dead for the app. The gateway marks a token it holds unregistered "
                    + "(unless the app uploaded it again after APNs's timestamp); the app uploads a new token when it "
                    + "is installed and launched again."
                : "The gateway marks a token it holds invalid. A sandbox token sent to production (or the reverse), "
                    + "or a token of another app, is the usual cause: register the token in the environment it came from."
        }
        switch info.retry {
        case .withBackoff: return "Temporary: the gateway retries with backoff; nothing to change."
        case .afterFix:
            return "Fix the credentials or the connection (a new provider token, the right key or certificate), then "
                + "send again."
        case .never:
            return "Fix the request (the Compose page's lint findings name the field) and send again; the same "
                + "request fails the same way."
        }
    }

    /// `{"reasons":{"Unregistered":{"status":410,"summary":...,"fix":...},...}}`.
    static let document: [UInt8] = {
        var reasons = JSONObject()
        for info in Reason.allDocumented {
            reasons.append(
                key: info.reason.rawValue,
                value: [
                    "status": .number(JSONNumber(info.status)), "summary": .string(info.summary),
                    "fix": .string(fix(info)), "prunes-token": .bool(info.prunesToken),
                ])
        }
        for entry in gatewayReasons {
            reasons.append(
                key: entry.reason,
                value: [
                    "status": .null, "summary": .string(entry.summary), "fix": .string(entry.fix),
                    "prunes-token": .bool(false),
                ])
        }
        return JSONValue.object(JSONObject([.init(key: "reasons", value: .object(reasons))])).encoded()
    }()
}
