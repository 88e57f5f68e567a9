import APNs

// Step 3: storage while offline (APNS-REFERENCE.md, "Store and forward"). APNs keeps one push per app for
// an offline device: a later push replaces the earlier, and a push with the same apns-collapse-id replaces
// it on purpose; apns-expiration 0 is never stored, and a stored push past its expiration is dropped. The
// emulator's delivery log shows the pushes accepted for the same token and app after this one; whether the
// device was offline between them is not logged, so the finding says "while offline".

extension Doctor {
    static func storageFindings(_ evidence: StorageEvidence) -> [DoctorFinding] {
        let push = evidence.push
        var findings: [DoctorFinding] = []
        let receivedSeconds = push.receivedAt / 1000
        if let expiration = push.expiration {
            if expiration == 0 {
                findings.append(
                    DoctorFinding(
                        .storage, .warning, id: "STORE-EXPIRATION-ZERO",
                        "apns-expiration is 0: APNs delivers it only if the device is online at that moment, and "
                            + "never stores it",
                        fix: "Give an expiration (UNIX seconds) as far ahead as the notification is still worth "
                            + "showing, or leave the header out (APNs then stores it for a limited time)."))
            } else if expiration <= receivedSeconds {
                findings.append(
                    DoctorFinding(
                        .storage, .cause, id: "STORE-EXPIRED",
                        "apns-expiration \(utc(expiration * 1000)) had passed when APNs received it (\(utc(push.receivedAt))): "
                            + "an offline device never gets it",
                        fix: "Set apns-expiration in the future (UNIX seconds, not milliseconds)."))
            }
        }
        // Without a simulated device behind the token (the emulator's open mode) nothing was stored or
        // replaced here: on APNs it would have been, so the finding stays, as a warning.
        let kind: DoctorFinding.Kind = evidence.deviceOnline == nil ? .warning : .cause
        if let collapsed = evidence.later.first(where: { $0.collapseID != nil && $0.collapseID == push.collapseID }) {
            findings.append(
                DoctorFinding(
                    .storage, kind, id: "STORE-COLLAPSED",
                    "a later push with the same apns-collapse-id \"\(collapsed.collapseID ?? "")\" (apns-id "
                        + "\(collapsed.apnsID ?? "?"), \(utc(collapsed.receivedAt))) replaced it: the device shows "
                        + "only the newest of them",
                    fix: "Use one collapse id only for notifications that update the same thing; give the others "
                        + "distinct collapse ids (or none)."))
        } else if let newer = evidence.later.last {
            let count = evidence.later.count
            let online = evidence.deviceOnline == true ? " (the device listens now; it may have been offline then)" : ""
            findings.append(
                DoctorFinding(
                    .storage, kind, id: "STORE-REPLACED",
                    "APNs accepted \(count) later push\(count == 1 ? "" : "es") for the same device and app (the "
                        + "newest: apns-id \(newer.apnsID ?? "?") at \(utc(newer.receivedAt))); while the device "
                        + "is offline APNs keeps only the newest push per app, so an offline device received only "
                        + "that one\(online)",
                    fix: "Do not rely on every push arriving: make each one carry the whole state (a count, not a "
                        + "delta), and have the app fetch what it missed when it opens or is woken."))
        } else if let online = evidence.deviceOnline {
            findings.append(
                DoctorFinding(
                    .storage, .note, id: "STORE-NEWEST",
                    "no later push to this device and app: "
                        + (online
                            ? "it was the newest (the device listens now)"
                            : "it is the one APNs keeps for the device while it is offline")))
        }
        return findings
    }
}
