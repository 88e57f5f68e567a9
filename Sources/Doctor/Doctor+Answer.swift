import APNs
import DeviceModel

// Step 2: APNs's answer. Apple's meaning of a reason is the one reason table's (`Reason.table`, its
// `summary`); what usually causes it and what to do are below, for the reasons whose usual cause is not
// the meaning itself. Other reasons get the fix their retry class implies.

extension Doctor {
    static func answerFindings(_ answer: APNsAnswer) -> [DoctorFinding] {
        if answer.status == 200 {
            let at = answer.receivedAt.map { " at \(utc($0))" } ?? ""
            return [DoctorFinding(.answer, .note, id: "ACCEPTED", "APNs accepted it (200)\(at)")]
        }
        guard answer.status != 0 else {
            return [
                DoctorFinding(
                    .answer, .cause, id: "NO-ANSWER", "no answer came: the connection failed before APNs answered",
                    fix:
                        "Check that APNs (or the emulator) is reachable, then send again; it may or may not have arrived."
                )
            ]
        }
        let reason = answer.reason?.rawValue ?? "(no reason)"
        let meaning = answer.reason?.info?.summary ?? "Apple does not document this reason."
        let advice: (cause: String, fix: String) =
            answer.reason.map { Self.advice($0, answer) } ?? ("", "Check the answer's body and send again.")
        let message =
            "APNs refused it: \(answer.status) \(reason). \(meaning)" + (advice.cause.isEmpty ? "" : " " + advice.cause)
        return [DoctorFinding(.answer, .cause, id: reason, message, fix: advice.fix)]
    }

    /// What usually causes `reason` (a sentence, or empty when Apple's meaning says it) and what to do.
    static func advice(_ reason: Reason, _ answer: APNsAnswer) -> (cause: String, fix: String) {
        switch reason {
        case .badDeviceToken:
            let environment = answer.tokenEnvironment.map {
                "The emulator issued this token for \($0 == "sandbox" ? "the sandbox (a development build)" : "production"); "
                    + "it was sent to the other environment."
            }
            return (
                environment ?? "Usually a development (sandbox) token sent to production, or the reverse: a build "
                    + "from Xcode registers with the sandbox, TestFlight and the App Store with production.",
                "Send the token to the environment it came from: keep the environment with each token when the app "
                    + "uploads it (aps-environment of the build), and use the matching endpoint."
            )
        case .deviceTokenNotForTopic:
            return (
                "The token belongs to another app (another bundle id) than apns-topic names.",
                "Send it with the topic of the app that registered the token."
            )
        case .topicDisallowed:
            return (
                "Usually the signing key (or certificate) belongs to another team than the app's.",
                "Sign with a key of the team that owns the app, or send to a topic that key's team owns."
            )
        case .unregistered, .expiredToken:
            let since =
                answer.timestamp.map { "APNs last knew the token valid at \(utc($0)): " }
                ?? answer.firstUnregisteredAt.map { "The token has been answered 410 since at least \(utc($0)): " }
                ?? ""
            return (
                since + "the app was removed from the device (or the token was replaced by a new registration).",
                "Stop sending to this token and delete it, unless the app uploaded it again after that time; the app "
                    + "sends a new token when it is installed and launched again."
            )
        case .payloadTooLarge:
            return (
                "A device push may carry 4096 bytes (5120 for VoIP).",
                "Send less: an identifier the app fetches the rest with, or a service extension that downloads it."
            )
        case .badPriority:
            return (
                "Background pushes take priority 5; Live Activity pushes 10 or 5.",
                "Set apns-priority to what the push type allows (5 for background)."
            )
        case .badEnvironmentKeyIdInToken:
            return (
                "The key is limited to the other environment.",
                "Use a key enabled for this environment, or send to the environment the key is for."
            )
        case .expiredProviderToken:
            return ("", "Sign a new provider token at least once an hour (and at most every 20 minutes).")
        case .invalidProviderToken, .missingProviderToken, .unrelatedKeyIdInToken:
            return ("", "Check the key id, team id and the .p8 key: the token must be signed by that key.")
        case .tooManyRequests:
            return (
                "Too many pushes to one device in a short time.",
                "Send fewer pushes to this device; retry later with backoff."
            )
        default:
            guard let info = reason.info else { return ("", "Check the answer's body and send again.") }
            switch info.retry {
            case .withBackoff: return ("", "Temporary: send again later with exponential backoff.")
            case .afterFix: return ("", "Fix the credentials or the connection, then send again.")
            case .never: return ("", "Fix the request (herald lint names the field) and send again.")
            }
        }
    }

    /// `2026-01-01T09:00:00Z` for milliseconds since 1970.
    static func utc(_ milliseconds: Int) -> String {
        DeviceInstant(secondsSince1970: Double(milliseconds / 1000)).description
    }
}
