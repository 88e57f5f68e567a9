/// Where an app's tokens come from. On an iPhone APNs hands them out; the model makes its own from the
/// device's seed unless an issuer gives one, as the emulator adapter does, so that the token on the
/// timeline is the one a backend can push to.
///
/// Returning nil leaves the choice to the model (a seeded token that routes only inside the model).
public protocol TokenIssuer: AnyObject {
    /// The device token for `bundleID` in `environment`; `generation` counts the app's token changes
    /// (0 until a reinstall or a device-wide rotation).
    func deviceToken(bundleID: String, environment: APSEnvironment, generation: UInt64) -> [UInt8]?
    /// A Live Activity update token (`Activity.pushToken`) for a new activity of `bundleID`.
    func liveActivityToken(bundleID: String, activityID: String) -> [UInt8]?
    /// The push-to-start token for `attributesType` of `bundleID`.
    func pushToStartToken(bundleID: String, attributesType: String) -> [UInt8]?
}
