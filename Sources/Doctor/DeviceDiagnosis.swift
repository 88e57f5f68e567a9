import APNs
import DeviceModel

// Step 4: the device. The notification is played on the profile's device model: the profile's script runs
// on a virtual clock, and the notification arrives where the script waits for a push (its first
// `wait-for-push` step; at the end when it has none). Every timeline entry about the notification becomes
// a finding: what stopped it (not shown, dropped, held) is a cause, what the user saw a note.

/// Plays one notification on a device profile and reads what the device decided.
struct DeviceDiagnosis {
    let profile: DeviceProfile
    let request: LintRequest
    /// The push type the linter worked out (the header's, or inferred from the payload).
    let pushType: PushType?

    /// How long after the push the model runs on, so that a service extension's 30 seconds end.
    static let settleSeconds = 31.0

    func findings() -> [DoctorFinding] {
        let run = ProfileRun(profile, clock: VirtualClock())
        var pushedAt: Int?
        var failure: DoctorFinding?
        do {
            loop: while true {
                switch try run.runUntilPause() {
                case .time(let seconds):
                    run.device.advance(by: seconds)
                case .pushes:
                    if pushedAt == nil { pushedAt = push(on: run, failure: &failure) }
                case .finished:
                    break loop
                }
            }
            if pushedAt == nil { pushedAt = push(on: run, failure: &failure) }
            run.device.advance(by: Self.settleSeconds)
        } catch {
            return [
                DoctorFinding(
                    .device, .note, id: "PROFILE-ERROR", "the profile's script stopped: \(error)",
                    fix: "Fix the profile (docs/DEVICE.md, \"Device profiles\").")
            ]
        }
        if let failure { return [failure] }
        guard let start = pushedAt else { return [] }
        return Self.findings(in: Array(run.device.timeline.entries[start...]), collapseID: request.collapseID)
    }

    /// Hands the notification to the model device; returns the timeline index it starts at.
    private func push(on run: ProfileRun, failure: inout DoctorFinding?) -> Int? {
        guard let token = run.app.deviceToken, let deviceToken = try? DeviceToken(bytes: token) else {
            failure = DoctorFinding(
                .device, .cause, id: "REG-NO-TOKEN",
                "the app on the profile's device holds no device token when the notification comes (it never "
                    + "registered, or registration failed)",
                fix: "Call registerForRemoteNotifications() at every launch, whether or not alerts are authorized, "
                    + "and upload the token from didRegisterForRemoteNotificationsWithDeviceToken.")
            return nil
        }
        let start = run.device.timeline.entries.count
        run.device.receive(
            RemotePush(
                token: deviceToken, pushType: pushType ?? .alert, collapseID: request.collapseID,
                apnsID: request.apnsID, payload: request.payload))
        return start
    }

    /// The entries about the notification (its identifier is the collapse id, or the one the device gave it
    /// when it was received), as findings.
    static func findings(in entries: [TimelineEntry], collapseID: String?) -> [DoctorFinding] {
        let identifier = collapseID ?? entries.first { $0.kind == .received }?.notificationID
        var findings: [DoctorFinding] = []
        for entry in entries where entry.notificationID == identifier || entry.notificationID == nil {
            guard entry.notificationID != nil || entry.kind == .dropped else { continue }
            findings.append(finding(entry))
        }
        // A rule that decides in several entries (the extension's deadline, then the original shown) is one
        // cause: its last entry, the outcome; the earlier ones stay as notes.
        for index in findings.indices where findings[index].kind == .cause {
            let later = findings[(index + 1)...]
            if later.contains(where: { $0.kind == .cause && $0.id == findings[index].id }) {
                let earlier = findings[index]
                findings[index] = DoctorFinding(earlier.step, .note, id: earlier.id, earlier.message)
            }
        }
        if !findings.contains(where: { $0.kind == .cause }), !entries.contains(where: { $0.kind == .presented }),
            !entries.contains(where: { $0.kind == .appWoken })
        {
            findings.append(
                DoctorFinding(.device, .note, id: "DEVICE-NOTHING", "the device neither showed it nor woke the app"))
        }
        return findings
    }

    static func finding(_ entry: TimelineEntry) -> DoctorFinding {
        let rule = entry.rule
        let message = "\(entry.message) (\(rule.id): \(rule.statement))"
        switch entry.kind {
        case .notShown, .dropped:
            return DoctorFinding(.device, .cause, id: rule.id, message, fix: fix(for: rule))
        case .presented where rule == .focusSilenced:
            // Listed, but with no banner and no sound: what "it never arrived" usually means under a Focus.
            return DoctorFinding(.device, .cause, id: rule.id, message, fix: fix(for: rule))
        case .presented:
            return DoctorFinding(.device, .note, id: rule.id, "the user saw it: \(entry.message)")
        case .serviceExtension where rule == .serviceExtensionTimeLimit || rule == .serviceExtensionNoAlertText:
            return DoctorFinding(.device, .cause, id: rule.id, message, fix: fix(for: rule))
        case .serviceExtension where rule == .serviceExtensionHandlerOnce || entry.message.contains("does not run"):
            return DoctorFinding(.device, .warning, id: rule.id, message, fix: fix(for: rule))
        default:
            return DoctorFinding(.device, .note, id: rule.id, entry.message)
        }
    }

    /// What to do about a device rule that stopped a notification.
    static func fix(for rule: DeviceRule) -> String {
        switch rule {
        case .unauthorizedSilent:
            "Ask for authorization (requestAuthorization) when the user sees why; a denied app can only send "
                + "the user to Settings. Consider provisional authorization."
        case .foregroundNotImplemented, .foregroundNoDelegate:
            "Set UNUserNotificationCenter's delegate in App.init or application(_:didFinishLaunchingWithOptions:) "
                + "and implement userNotificationCenter(_:willPresent:withCompletionHandler:), returning [.banner, "
                + ".list, .sound] for what should show in the foreground."
        case .foregroundWillPresent:
            "willPresent returned []: return the options the notification should show with in the foreground."
        case .serviceExtensionTimeLimit:
            "Call the content handler exactly once on every path of didReceive(_:withContentHandler:), including "
                + "download failures, and in serviceExtensionTimeWillExpire() with the best content so far."
        case .serviceExtensionNoAlertText:
            "Hand back content with a title, subtitle or body."
        case .serviceExtensionHandlerOnce:
            "Call the content handler once: later calls are ignored."
        case .serviceExtensionRuns:
            "The extension runs only for an alert with mutable-content 1 and alert text, when alerts are allowed."
        case .backgroundBudget, .backgroundNewestOnly:
            "Send fewer background pushes (a few an hour at most): the system holds the rest, newest only. For "
                + "something the user must see, send an alert."
        case .backgroundWake:
            "Add the remote-notification background mode (UIBackgroundModes), and expect no wake after the user "
                + "force-quits the app."
        case .focusSilenced:
            "The user's Focus silenced it (listed, no banner, no sound). Only the user can allow the app in that "
                + "Focus; for what must break through, send interruption-level time-sensitive with the Time "
                + "Sensitive Notifications entitlement (the user can still turn that off)."
        case .summaryDelivery:
            "The user put the app in the scheduled summary: passive and active notifications wait for its next "
                + "delivery. Send interruption-level time-sensitive (with its entitlement) for what cannot wait."
        case .backgroundFetchHandler, .backgroundFetchPenalty:
            "Call the fetch completion handler of application(_:didReceiveRemoteNotification:fetchCompletionHandler:) "
                + "on every path within 30 s, with .newData, .noData or .failed: a late or missing call gets the "
                + "app terminated and costs it background wakes."
        case .tokenNotCurrent:
            "Send to the token the app uploaded last: it uploads a new one after a reinstall or restore."
        case .classifyNothing, .pushPayload:
            "Give aps an alert, sound or badge, or content-available 1 for a background update."
        default:
            "See \(rule.id) in docs/DEVICE.md and DEVICE-SEMANTICS.md \(rule.section)."
        }
    }
}
