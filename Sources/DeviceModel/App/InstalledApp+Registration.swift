import APNs

/// What `registerForRemoteNotifications()` led to.
public enum RegistrationOutcome: Sendable, Hashable {
    /// `didRegisterForRemoteNotificationsWithDeviceToken` with these bytes.
    case registered(token: [UInt8])
    /// `didFailToRegisterForRemoteNotificationsWithError`.
    case failed(RegistrationError)
    /// Neither callback ran.
    case noCallback
}

/// Why an app's token changed.
public enum TokenRotation: String, Sendable, Hashable {
    case backupRestore = "restored from a backup"
    case newDevice = "moved to a new device"
    case osReinstall = "OS reinstalled"
    case erase = "device erased"
}

extension InstalledApp {
    /// `UIApplication.registerForRemoteNotifications()`: independent of authorization; the delegate hears
    /// the outcome, which is also returned.
    @discardableResult
    public func registerForRemoteNotifications() -> RegistrationOutcome {
        guard let environment = configuration.entitlements.apsEnvironment else {
            let error = RegistrationError.missingAPSEnvironment
            context.record(.registration, .registrationNoEntitlement, "registration failed: \(error)", app: bundleID)
            delegate.didFailToRegisterForRemoteNotifications?(error)
            return .failed(error)
        }
        if !context.isOnline, deviceToken == nil {
            context.record(
                .registration, .registrationOfflineFirst,
                "registration while offline, never registered before: neither callback runs", app: bundleID)
            return .noCallback
        }
        let token = token(for: environment)
        let repeated = deviceToken == token
        deviceToken = token
        let status = notificationCenter.authorization.settings.authorizationStatus
        context.record(
            .registration, repeated ? .registrationToken : .registrationIndependent,
            (repeated ? "registered again: the same token " : "registered: token ") + hex(token)
                + " (\(environment.rawValue)), authorization \(status)", app: bundleID)
        delegate.didRegisterForRemoteNotifications?(token)
        return .registered(token: token)
    }

    /// `unregisterForRemoteNotifications()`: pushes to the token stop reaching the app until it registers again.
    public func unregisterForRemoteNotifications() {
        deviceToken = nil
    }

    /// `isRegisteredForRemoteNotifications`.
    public var isRegisteredForRemoteNotifications: Bool { deviceToken != nil }

    /// The token changes for a device-wide reason. After a backup restore UIKit tells a registered app at
    /// once; otherwise the app learns it at its next registration.
    func rotateToken(_ reason: TokenRotation) {
        tokenGeneration &+= 1
        guard let old = deviceToken, let environment = configuration.entitlements.apsEnvironment else { return }
        deviceToken = nil
        if reason == .backupRestore {
            let token = token(for: environment)
            deviceToken = token
            context.record(
                .registration, .registrationRotation,
                "\(reason.rawValue): token \(hex(old)) replaced by \(hex(token)); the delegate is told unprompted",
                app: bundleID)
            delegate.didRegisterForRemoteNotifications?(token)
        } else {
            context.record(
                .registration, .registrationRotation,
                "\(reason.rawValue): token \(hex(old)) no longer current; the next registration hands out a new one",
                app: bundleID)
        }
    }

    /// The issuer's token, or 32 bytes that depend on the device, the app, the environment and the generation, so tokens are unique
    /// per app and device, differ between sandbox and production, and reproduce from the device's seed.
    func token(for environment: APSEnvironment) -> [UInt8] {
        if let issued = context.tokenIssuer?.deviceToken(
            bundleID: bundleID, environment: environment, generation: tokenGeneration)
        {
            return issued
        }
        var generator = SplitMix64(
            seed: SplitMix64.mix(context.seed) ^ fnv1a(bundleID) ^ (environment == .production ? 0x5052_4F44 : 0)
                ^ SplitMix64.mix(tokenGeneration))
        return (0..<4).flatMap { _ in withUnsafeBytes(of: generator.next().bigEndian, Array.init) }
    }
}

func hex(_ bytes: [UInt8]) -> String { Hex.encode(bytes) }

/// FNV-1a over UTF-8: a hash that, unlike `Hasher`, is the same in every process.
func fnv1a(_ text: String) -> UInt64 {
    text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
}
