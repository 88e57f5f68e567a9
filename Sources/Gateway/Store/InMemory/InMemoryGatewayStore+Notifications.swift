import APNs

extension InMemoryGatewayStore {
    public func createNotification(_ request: NotificationRequest, id: NotificationID, now: Int)
        async throws(GatewayStoreError) -> NotificationCreation
    {
        state.withLock { state in
            let key = request.idempotencyKey.map { TokenKey(bundleID: request.bundleID, token: $0) }
            if let key, let existing = state.idempotencyKeys[key], let entry = state.notifications[existing] {
                let notification = entry.notification
                let recipients =
                    notification.expanded
                    ? notification.recipients
                    : state.countRecipients(notification.request.to, bundleID: notification.request.bundleID)
                return NotificationCreation(notification: notification, created: false, recipients: recipients)
            }
            var request = request
            request.to = request.to.normalized
            let notification = StoredNotification(
                id: id, request: request, state: (request.sendAt ?? now) > now ? .scheduled : .sending, createdAt: now,
                recipients: 0, expanded: false)
            state.notifications[id] = NotificationEntry(notification: notification)
            state.notificationOrder.append(id)
            if let key { state.idempotencyKeys[key] = id }
            let recipients = state.countRecipients(request.to, bundleID: request.bundleID)
            return NotificationCreation(notification: notification, created: true, recipients: recipients)
        }
    }

    public func notification(id: NotificationID) async throws(GatewayStoreError) -> StoredNotification? {
        state.withLock { $0.notifications[id]?.notification }
    }

    public func notifications(bundleID: String, before cursor: Int?, limit: Int) async throws(GatewayStoreError)
        -> NotificationPage
    {
        let limit = StoreLimits.clamp(limit)
        return state.withLock { state in
            // The cursor is a position in creation order, which only grows.
            var position = min(cursor ?? state.notificationOrder.count, state.notificationOrder.count)
            var page: [StoredNotification] = []
            while position > 0 {
                position -= 1
                guard let notification = state.notifications[state.notificationOrder[position]]?.notification,
                    notification.request.bundleID == bundleID
                else { continue }
                if page.count == limit { return NotificationPage(notifications: page, nextCursor: position + 1) }
                page.append(notification)
            }
            return NotificationPage(notifications: page, nextCursor: nil)
        }
    }

    public func expandNotification(id: NotificationID, chunkSize: Int, maximumChunks: Int, now: Int)
        async throws(GatewayStoreError) -> ExpansionProgress
    {
        let chunkSize = StoreLimits.clamp(chunkSize)
        return try await ExpansionProgress.run(maximumChunks: maximumChunks) { () async throws(GatewayStoreError) in
            try state.withLock { state throws(GatewayStoreError) in
                try state.expandChunk(id: id, chunkSize: chunkSize, now: now)
            }
        }
    }

    public func expandAndClaim(id: NotificationID, chunkSize: Int, claimer: String, leaseMilliseconds: Int, now: Int)
        async throws(GatewayStoreError) -> ClaimedExpansion
    {
        let chunkSize = StoreLimits.clamp(chunkSize)
        let until = now + max(0, leaseMilliseconds)
        return try state.withLock { state throws(GatewayStoreError) in
            let step = try state.expandChunk(id: id, chunkSize: chunkSize, now: now)
            let inserted = step.inserted ?? 0
            var claimed: [Delivery] = []
            for index in (state.deliveries.count - inserted)..<state.deliveries.count {
                state.deliveries[index].claimedBy = claimer
                state.deliveries[index].claimedUntil = until
                state.deliveries[index].nextAttemptAt = until
                claimed.append(state.deliveries[index])
            }
            let notification = claimed.isEmpty ? nil : state.notifications[id]?.notification
            return ClaimedExpansion(
                progress: ExpansionProgress(
                    inserted: inserted, chunks: step.inserted == nil ? 0 : 1, recipients: step.recipients,
                    finished: step.finished),
                claim: DeliveryClaim(deliveries: claimed, notifications: notification.map { [id: $0] } ?? [:]))
        }
    }

    public func startDueNotifications(now: Int, limit: Int) async throws(GatewayStoreError) -> [NotificationID] {
        state.withLock { state in
            let due = state.notificationOrder.compactMap { state.notifications[$0]?.notification }
                .filter { $0.state == .scheduled && ($0.request.sendAt ?? 0) <= now }
                .sorted { ($0.request.sendAt ?? 0) < ($1.request.sendAt ?? 0) }
                .prefix(StoreLimits.clamp(limit))
            for notification in due { state.notifications[notification.id]?.notification.state = .sending }
            return due.map(\.id)
        }
    }

    public func notificationsToExpand(limit: Int) async throws(GatewayStoreError) -> [NotificationID] {
        state.withLock { state in
            Array(
                state.notificationOrder.filter { id in
                    state.notifications[id].map { $0.notification.state == .sending && !$0.notification.expanded }
                        ?? false
                }.prefix(StoreLimits.clamp(limit)))
        }
    }

    public func counts(id: NotificationID) async throws(GatewayStoreError) -> NotificationCounts {
        try state.withLock { state throws(GatewayStoreError) in
            guard let entry = state.notifications[id] else { throw .unknownNotification(id) }
            var counts = entry.counts
            for deliveryID in entry.deliveryIDs {
                let delivery = state.deliveries[deliveryID - 1]
                if delivery.status == .failed, let reason = delivery.reason { counts.byReason[reason, default: 0] += 1 }
            }
            return counts
        }
    }

    public func cancelNotification(id: NotificationID, now: Int) async throws(GatewayStoreError) -> StoredNotification {
        try state.withLock { state throws(GatewayStoreError) in
            guard var entry = state.notifications[id] else { throw .unknownNotification(id) }
            guard entry.notification.state == .scheduled || entry.notification.state == .sending else {
                return entry.notification
            }
            for deliveryID in entry.deliveryIDs where state.deliveries[deliveryID - 1].status == .pending {
                state.deliveries[deliveryID - 1].status = .cancelled
                state.deliveries[deliveryID - 1].claimedBy = nil
                state.deliveries[deliveryID - 1].claimedUntil = nil
                entry.counts.pending -= 1
                entry.counts.cancelled += 1
            }
            entry.notification.state = .cancelled
            state.notifications[id] = entry
            return entry.notification
        }
    }

    // MARK: - Deliveries

    public func claimDeliveries(limit: Int, claimer: String, leaseMilliseconds: Int, now: Int)
        async throws(GatewayStoreError) -> DeliveryClaim
    {
        state.withLock { state in
            let until = now + max(0, leaseMilliseconds)
            let due = state.deliveries.filter { $0.status == .pending && $0.nextAttemptAt <= now }
                .sorted { ($0.nextAttemptAt, $0.id) < ($1.nextAttemptAt, $1.id) }
                .prefix(StoreLimits.clamp(limit))
            var claimed: [Delivery] = []
            var notifications: [NotificationID: StoredNotification] = [:]
            for delivery in due.sorted(by: { $0.id < $1.id }) {
                state.deliveries[delivery.id - 1].claimedBy = claimer
                state.deliveries[delivery.id - 1].claimedUntil = until
                state.deliveries[delivery.id - 1].nextAttemptAt = until
                claimed.append(state.deliveries[delivery.id - 1])
                notifications[delivery.notificationID] = state.notifications[delivery.notificationID]?.notification
            }
            return DeliveryClaim(deliveries: claimed, notifications: notifications)
        }
    }

    @discardableResult
    public func recordOutcomes(_ outcomes: [DeliveryOutcome], backoff: DeliveryBackoff, now: Int)
        async throws(GatewayStoreError) -> Int
    {
        state.withLock { state in
            var touched = Set<NotificationID>()
            var pruned = 0
            for outcome in outcomes {
                guard outcome.deliveryID >= 1, outcome.deliveryID <= state.deliveries.count else { continue }
                let delivery = state.deliveries[outcome.deliveryID - 1]
                guard delivery.status == .pending, let entry = state.notifications[delivery.notificationID] else {
                    continue
                }
                let request = entry.notification.request
                let (next, prune) = delivery.applying(outcome.result, backoff: backoff, topic: request.topic, now: now)
                state.deliveries[next.id - 1] = next
                if next.status != .pending {
                    state.notifications[next.notificationID]?.counts.pending -= 1
                    state.notifications[next.notificationID]?.counts.count(next.status)
                }
                touched.insert(next.notificationID)
                if let prune, state.prune(prune, bundleID: request.bundleID, kind: next.kind, token: next.recipient) {
                    pruned += 1
                }
            }
            for id in touched { state.finishIfDone(id) }
            return pruned
        }
    }

    public func renewClaims(_ deliveries: [Delivery], claimer: String, until: Int) async throws(GatewayStoreError)
        -> Set<Int>
    {
        state.withLock { state in
            var renewed = Set<Int>()
            for delivery in deliveries where delivery.id >= 1 && delivery.id <= state.deliveries.count {
                let row = state.deliveries[delivery.id - 1]
                guard row.status == .pending, row.claimedBy == claimer, row.claimedUntil == delivery.claimedUntil
                else { continue }
                state.deliveries[delivery.id - 1].claimedUntil = until
                state.deliveries[delivery.id - 1].nextAttemptAt = until
                renewed.insert(delivery.id)
            }
            return renewed
        }
    }

    public func pendingDeliveryCount() async throws(GatewayStoreError) -> Int {
        state.withLock { state in state.deliveries.reduce(0) { $0 + ($1.status == .pending ? 1 : 0) } }
    }

    public func inactiveTokens(bundleID: String, kind: Delivery.Kind, tokens: [String]) async throws(GatewayStoreError)
        -> Set<String>
    {
        state.withLock { state in
            Set(tokens.filter { state.isInactive(bundleID: bundleID, kind: kind, token: $0) })
        }
    }

    public func deliveries(notificationID: NotificationID, after cursor: Int?, limit: Int)
        async throws(GatewayStoreError) -> DeliveryPage
    {
        state.withLock { state in
            let limit = StoreLimits.clamp(limit)
            let ids = (state.notifications[notificationID]?.deliveryIDs ?? []).filter { $0 > (cursor ?? 0) }.prefix(
                limit + 1)
            let page = ids.prefix(limit).map { state.deliveries[$0 - 1] }
            return DeliveryPage(deliveries: page, nextCursor: ids.count > limit ? page.last?.id : nil)
        }
    }
}

extension InMemoryGatewayStore.State {
    /// Whether the token of `kind` is stored with a status other than active.
    func isInactive(bundleID: String, kind: Delivery.Kind, token: String) -> Bool {
        let key = InMemoryGatewayStore.TokenKey(bundleID: bundleID, token: token)
        switch kind {
        case .device:
            return deviceSeqs[key].flatMap { devices[$0 - 1] }.map { $0.status != .active } ?? false
        case .pushToStart:
            return pushToStartSeqs[key].flatMap { pushToStart[$0 - 1] }.map { $0.status != .active } ?? false
        case .activity:
            return activities.values.contains {
                $0.bundleID == bundleID && $0.token.hex == token && $0.status != .active
            }
        case .channel:
            return false
        }
    }

    /// How many recipients `to` (without repeats) has now, as `SQLiteGatewayStore` counts them.
    func countRecipients(_ to: NotificationRequest.Recipients, bundleID: String) -> Int {
        func activeDevices(_ matches: (Device) -> Bool) -> Int {
            devices.count(where: { device in
                guard let device, device.bundleID == bundleID, device.status == .active else { return false }
                return matches(device)
            })
        }
        switch to {
        case .channel: return 1
        case .tokens(let tokens):
            return tokens.count(where: { token in
                let key = InMemoryGatewayStore.TokenKey(bundleID: bundleID, token: token.hex)
                return deviceSeqs[key].flatMap { devices[$0 - 1] }.map { $0.status == .active } ?? true
            })
        case .tags(let tags):
            let wanted = Set(tags)
            return activeDevices { !wanted.isDisjoint(with: $0.tags) }
        case .users(let users):
            let wanted = Set(users)
            return activeDevices { $0.user.map(wanted.contains) ?? false }
        case .pushToStart(let users, let type):
            let wanted = Set(users)
            return pushToStart.count(where: { token in
                guard let token, token.bundleID == bundleID, token.status == .active else { return false }
                return token.attributesType == type && (token.user.map(wanted.contains) ?? false)
            })
        case .activity(let activityID):
            let token = activities[InMemoryGatewayStore.TokenKey(bundleID: bundleID, token: activityID)]
            return token?.status == .active ? 1 : 0
        }
    }

    mutating func finishIfDone(_ id: NotificationID) {
        guard let entry = notifications[id], entry.notification.state == .sending, entry.notification.expanded,
            entry.counts.pending == 0
        else { return }
        notifications[id]?.notification.state = .done
    }

    /// One expansion chunk, as `SQLiteGatewayStore`'s: rows made (nil: nothing to do), recipients, done.
    mutating func expandChunk(id: NotificationID, chunkSize: Int, now: Int) throws(GatewayStoreError)
        -> (inserted: Int?, recipients: Int, finished: Bool)
    {
        guard var entry = notifications[id] else { throw .unknownNotification(id) }
        guard entry.notification.state == .sending, !entry.notification.expanded else {
            return (nil, entry.notification.recipients, true)
        }
        let request = entry.notification.request
        var rows: [ExpansionRow] = []
        var cursor = entry.cursor
        var finished = false
        func scanDevices(_ matches: (Device) -> Bool) {
            var seq = cursor
            while rows.count < chunkSize, seq < devices.count {
                seq += 1
                guard let device = devices[seq - 1], device.bundleID == request.bundleID, device.status == .active,
                    matches(device)
                else { continue }
                rows.append(
                    ExpansionRow(
                        cursor: seq, kind: .device, recipient: device.token.hex, environment: device.environment))
            }
            finished = rows.count < chunkSize  // as SQLite decides: a full chunk may have more after it
            cursor = rows.last?.cursor ?? seq
        }
        switch request.to {
        case .tags(let tags):
            let wanted = Set(tags)
            scanDevices { !wanted.isDisjoint(with: $0.tags) }
        case .users(let users):
            let wanted = Set(users)
            scanDevices { $0.user.map(wanted.contains) ?? false }
        case .pushToStart(let users, let type):
            let wanted = Set(users)
            var seq = cursor
            while rows.count < chunkSize, seq < pushToStart.count {
                seq += 1
                guard let token = pushToStart[seq - 1], token.bundleID == request.bundleID, token.status == .active,
                    token.attributesType == type, token.user.map(wanted.contains) ?? false
                else { continue }
                rows.append(
                    ExpansionRow(
                        cursor: seq, kind: .pushToStart, recipient: token.token.hex, environment: token.environment))
            }
            finished = rows.count < chunkSize
            cursor = rows.last?.cursor ?? seq
        case .tokens(let tokens):
            let end = min(tokens.count, cursor + chunkSize)
            for position in cursor..<max(cursor, end) {
                let key = InMemoryGatewayStore.TokenKey(bundleID: request.bundleID, token: tokens[position].hex)
                let known = deviceSeqs[key].flatMap { devices[$0 - 1] }
                if let known, known.status != .active { continue }
                rows.append(
                    ExpansionRow(
                        cursor: position + 1, kind: .device, recipient: tokens[position].hex,
                        environment: known?.environment ?? request.environment))
            }
            cursor = max(cursor, end)
            finished = end >= tokens.count
        case .activity(let activityID):
            if let token = activities[InMemoryGatewayStore.TokenKey(bundleID: request.bundleID, token: activityID)],
                token.status == .active
            {
                rows.append(
                    ExpansionRow(cursor: 1, kind: .activity, recipient: token.token.hex, environment: token.environment)
                )
            }
            (cursor, finished) = (1, true)
        case .channel(let channel):
            rows.append(
                ExpansionRow(cursor: 1, kind: .channel, recipient: channel.value, environment: request.environment))
            (cursor, finished) = (1, true)
        }
        for row in rows {
            let delivery = Delivery(
                id: deliveries.count + 1, notificationID: id, kind: row.kind, recipient: row.recipient,
                environment: row.environment, apnsID: APNsID.random(), nextAttemptAt: now)
            deliveries.append(delivery)
            entry.deliveryIDs.append(delivery.id)
        }
        entry.cursor = cursor
        entry.notification.expanded = finished
        entry.notification.recipients += rows.count
        entry.counts.pending += rows.count
        notifications[id] = entry
        finishIfDone(id)
        return (rows.count, entry.notification.recipients, finished)
    }
}
