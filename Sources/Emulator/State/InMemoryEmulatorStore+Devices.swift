extension InMemoryEmulatorStore {
    public func insertDevice(_ device: StoredDevice) throws(EmulatorStoreError) {
        try state.withLock { state throws(EmulatorStoreError) in
            guard !state.devices.contains(where: { $0.id == device.id }) else { throw .deviceExists(device.id) }
            guard !state.devices.contains(where: { $0.token == device.token }) else { throw .tokenInUse(device.token) }
            state.devices.append(device)
        }
    }

    public func device(id: String) throws(EmulatorStoreError) -> StoredDevice? {
        state.withLock { $0.devices.first { $0.id == id } }
    }

    public func device(token: String) throws(EmulatorStoreError) -> StoredDevice? {
        state.withLock { $0.devices.first { $0.token == token } }
    }

    public func devices() throws(EmulatorStoreError) -> [StoredDevice] {
        state.withLock { $0.devices }
    }

    public func deleteDevice(id: String) throws(EmulatorStoreError) -> Bool {
        state.withLock { state in
            guard let index = state.devices.firstIndex(where: { $0.id == id }) else { return false }
            state.devices.remove(at: index)
            state.activityTokens.removeAll { $0.deviceID == id }
            state.notifications.removeAll { $0.deviceID == id }
            state.subscriptions.removeAll { $0.deviceID == id }
            return true
        }
    }

    public func insertActivityToken(_ token: StoredActivityToken) throws(EmulatorStoreError) {
        try state.withLock { state throws(EmulatorStoreError) in
            guard state.devices.contains(where: { $0.id == token.deviceID }) else {
                throw .unknownDevice(token.deviceID)
            }
            guard !state.activityTokens.contains(where: { $0.token == token.token }) else {
                throw .tokenInUse(token.token)
            }
            state.activityTokens.append(token)
        }
    }

    public func activityToken(_ token: String) throws(EmulatorStoreError) -> StoredActivityToken? {
        state.withLock { $0.activityTokens.first { $0.token == token } }
    }

    public func activityTokens(ofDevice deviceID: String) throws(EmulatorStoreError) -> [StoredActivityToken] {
        state.withLock { $0.activityTokens.filter { $0.deviceID == deviceID } }
    }

    public func deleteActivityToken(_ token: String) throws(EmulatorStoreError) -> Bool {
        state.withLock { state in
            guard let index = state.activityTokens.firstIndex(where: { $0.token == token }) else { return false }
            state.activityTokens.remove(at: index)
            return true
        }
    }

    public func storeNotification(_ notification: StoredNotification) throws(EmulatorStoreError) {
        try state.withLock { state throws(EmulatorStoreError) in
            guard state.devices.contains(where: { $0.id == notification.deviceID }) else {
                throw .unknownDevice(notification.deviceID)
            }
            state.notifications.removeAll {
                $0.deviceID == notification.deviceID && $0.bundleID == notification.bundleID
                    && $0.channelID == notification.channelID
            }
            state.notifications.append(notification)
        }
    }

    public func storedNotifications(ofDevice deviceID: String) throws(EmulatorStoreError) -> [StoredNotification] {
        state.withLock { state in
            state.notifications.filter { $0.deviceID == deviceID }.sorted { $0.storedAt < $1.storedAt }
        }
    }

    public func deleteStoredNotifications(ofDevice deviceID: String) throws(EmulatorStoreError) -> Int {
        state.withLock { state in
            let before = state.notifications.count
            state.notifications.removeAll { $0.deviceID == deviceID }
            return before - state.notifications.count
        }
    }

    public func deleteExpiredNotifications(now: Int) throws(EmulatorStoreError) -> Int {
        state.withLock { state in
            let before = state.notifications.count
            state.notifications.removeAll { $0.expiresAt <= now }
            return before - state.notifications.count
        }
    }

    public func subscribe(_ subscription: StoredSubscription) throws(EmulatorStoreError) {
        try state.withLock { state throws(EmulatorStoreError) in
            guard state.devices.contains(where: { $0.id == subscription.deviceID }) else {
                throw .unknownDevice(subscription.deviceID)
            }
            let known = state.subscriptions.contains {
                $0.deviceID == subscription.deviceID && $0.bundleID == subscription.bundleID
                    && $0.channelID == subscription.channelID
            }
            if !known { state.subscriptions.append(subscription) }
        }
    }

    public func subscriptions(ofDevice deviceID: String) throws(EmulatorStoreError) -> [StoredSubscription] {
        state.withLock { $0.subscriptions.filter { $0.deviceID == deviceID } }
    }
}
