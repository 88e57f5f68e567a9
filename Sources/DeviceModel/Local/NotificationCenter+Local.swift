// Local notifications (DEVICE-SEMANTICS.md 6): add -> pending (replace by identifier; at most 64, the
// oldest added dropped) -> the trigger fires on the model clock -> presented as a remote one would be
// (no service extension); a repeating trigger re-arms until the request is removed.

/// `UNError`: why the center refused a request.
public enum NotificationCenterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `UNError.Code.notificationsNotAllowed` (1): the user denied the app's notifications.
    case notificationsNotAllowed

    public var description: String {
        switch self {
        case .notificationsNotAllowed: "notificationsNotAllowed: the user has denied this app's notifications"
        }
    }
}

/// A local request waiting for its trigger.
struct PendingRequest {
    var request: NotificationRequest
    /// Its place in the order of additions; firing events carry it, so a replaced request's events are void.
    let addition: Int
    /// nil for a location trigger: it fires when the device moves, not at a time.
    var fireDate: DeviceInstant?
}

extension NotificationCenter {
    /// Most requests that stay pending; the one added longest ago makes room.
    public static let pendingLimit = 64

    /// `add(_:)`: schedules a local request, or delivers it now when it has no trigger.
    public func add(_ request: NotificationRequest) throws(NotificationCenterError) {
        expireEphemeral()
        let id = request.identifier
        let status = authorization.settings.authorizationStatus
        if status == .denied {
            context.record(
                .dropped, .localNotAllowed, "add refused: \(NotificationCenterError.notificationsNotAllowed)",
                app: app.bundleID, notification: id)
            throw .notificationsNotAllowed
        }
        if pending.contains(where: { $0.request.identifier == id }) {
            pending.removeAll { $0.request.identifier == id }
            context.record(
                .scheduled, .localReplace, "added again: replaces the pending request", app: app.bundleID,
                notification: id)
        }
        switch request.trigger {
        case nil, .push?:
            context.record(
                .scheduled, .localScheduled, "added without a trigger: delivered now", app: app.bundleID,
                notification: id)
            deliverLocal(request, at: context.now)
        case .timeInterval(let trigger)?:
            additions += 1
            let fireDate = context.now + trigger.timeInterval
            pending.append(PendingRequest(request: request, addition: additions, fireDate: fireDate))
            context.record(
                .scheduled, .localScheduled,
                "scheduled for \(fireDate)" + (trigger.repeats ? ", then every \(seconds(trigger.timeInterval))" : "")
                    + (status == .notDetermined ? " (accepted while notDetermined; shown only once authorized)" : ""),
                app: app.bundleID, notification: id)
            arm(id, addition: additions, at: fireDate)
            dropOverLimit()
        case .calendar(let trigger)?:
            guard
                let fireDate = trigger.nextTriggerDate(
                    after: context.now, deviceZone: context.timeZoneIdentifier, deviceOffset: context.timeZoneOffset)
            else {
                context.record(
                    .scheduled, .localCalendar, "no date matches the trigger's components: it never fires",
                    app: app.bundleID, notification: id)
                return
            }
            additions += 1
            pending.append(PendingRequest(request: request, addition: additions, fireDate: fireDate))
            let named = trigger.usesNamedZone(deviceZone: context.timeZoneIdentifier)
            context.record(
                .scheduled, named ? .localCalendarZone : .localCalendar,
                "scheduled for \(fireDate), the next date matching its components"
                    + (named
                        ? " in "
                            + trigger.zoneDescription(
                                deviceZone: context.timeZoneIdentifier, deviceOffset: context.timeZoneOffset) : "")
                    + (trigger.repeats ? ", repeating" : "")
                    + (status == .notDetermined ? " (accepted while notDetermined; shown only once authorized)" : ""),
                app: app.bundleID, notification: id)
            arm(id, addition: additions, at: fireDate)
            dropOverLimit()
        case .location(let trigger)?:
            additions += 1
            pending.append(PendingRequest(request: request, addition: additions, fireDate: nil))
            let region = trigger.region
            let how = [region.notifyOnEntry ? "entering" : nil, region.notifyOnExit ? "leaving" : nil]
                .compactMap { $0 }.joined(separator: " or ")
            let authorization = owner?.locationAuthorization ?? .notDetermined
            context.record(
                .scheduled, .localLocation,
                "waits for \(how) region \(region.identifier) (\(region.center), \(Int(region.radius)) m)"
                    + (trigger.repeats ? ", repeating" : "")
                    + (authorization.allowsLocationTriggers
                        ? "" : "; location authorization is \(authorization.rawValue), it cannot fire until granted"),
                app: app.bundleID, notification: id)
            dropOverLimit()
        }
    }

    /// The device moved from `old` (nil: unknown) to `new`: fires the location triggers whose region edge it
    /// crossed as they ask, if the app may use location.
    func deviceMoved(from old: Coordinate?, to new: Coordinate) {
        guard let old else { return }
        for entry in pending {
            guard case .location(let trigger)? = entry.request.trigger else { continue }
            let region = trigger.region
            let (was, now) = (region.contains(old), region.contains(new))
            let crossing: String? =
                if !was, now, region.notifyOnEntry {
                    "entered"
                } else if was, !now, region.notifyOnExit {
                    "left"
                } else {
                    nil
                }
            guard let crossing else { continue }
            let id = entry.request.identifier
            let authorization = owner?.locationAuthorization ?? .notDetermined
            guard authorization.allowsLocationTriggers else {
                context.record(
                    .dropped, .localLocationAuthorization,
                    "\(crossing) region \(region.identifier), but location authorization is \(authorization.rawValue): "
                        + "the trigger does not fire", app: app.bundleID, notification: id)
                continue
            }
            if !trigger.repeats { pending.removeAll { $0.addition == entry.addition } }
            context.record(
                .scheduled, .localLocation, "\(crossing) region \(region.identifier): trigger fired", app: app.bundleID,
                notification: id)
            deliverLocal(entry.request, at: context.now)
        }
    }

    /// `pendingNotificationRequests()`: oldest added first.
    public func pendingNotificationRequests() -> [NotificationRequest] {
        pending.map(\.request)
    }

    /// `removePendingNotificationRequests(withIdentifiers:)`: ids that are not pending are ignored.
    public func removePendingNotificationRequests(withIdentifiers identifiers: [String]) {
        let removed = Set(identifiers)
        for entry in pending where removed.contains(entry.request.identifier) {
            context.record(
                .removed, .localRemoved, "pending request removed by the app", app: app.bundleID,
                notification: entry.request.identifier)
        }
        pending.removeAll { removed.contains($0.request.identifier) }
    }

    public func removeAllPendingNotificationRequests() {
        removePendingNotificationRequests(withIdentifiers: pending.map(\.request.identifier))
    }

    /// The next time each pending request fires, by identifier.
    public func nextTriggerDate(ofPendingRequest identifier: String) -> DeviceInstant? {
        pending.first { $0.request.identifier == identifier }?.fireDate ?? nil
    }

    private func arm(_ identifier: String, addition: Int, at time: DeviceInstant) {
        context.schedule(at: time) { [weak self] in self?.fire(identifier, addition: addition, at: time) }
    }

    private func fire(_ identifier: String, addition: Int, at time: DeviceInstant) {
        guard let index = pending.firstIndex(where: { $0.request.identifier == identifier && $0.addition == addition })
        else { return }
        let request = pending[index].request
        if case .timeInterval(let trigger)? = request.trigger, trigger.repeats {
            let next = time + trigger.timeInterval
            pending[index].fireDate = next
            arm(identifier, addition: addition, at: next)
        } else if case .calendar(let trigger)? = request.trigger, trigger.repeats,
            let next = trigger.nextTriggerDate(
                after: time, deviceZone: context.timeZoneIdentifier, deviceOffset: context.timeZoneOffset)
        {
            pending[index].fireDate = next
            arm(identifier, addition: addition, at: next)
        } else {
            pending.remove(at: index)
        }
        context.record(
            .scheduled, .localScheduled, "trigger fired", app: app.bundleID, notification: identifier, at: time)
        deliverLocal(request, at: time)
    }

    private func dropOverLimit() {
        while pending.count > Self.pendingLimit {
            let dropped = pending.removeFirst()
            context.record(
                .removed, .localPendingLimit,
                "more than \(Self.pendingLimit) pending: the request added longest ago is dropped", app: app.bundleID,
                notification: dropped.request.identifier)
        }
    }

    private func deliverLocal(_ request: NotificationRequest, at time: DeviceInstant) {
        let status = authorization.settings.authorizationStatus
        guard status.allowsDelivery else {
            context.record(
                .notShown, .localNotAllowed, "authorization \(status): nothing shown", app: app.bundleID,
                notification: request.identifier, at: time)
            return
        }
        owner?.present(request, at: time)
    }
}
