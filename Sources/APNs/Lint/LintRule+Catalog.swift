// Every rule the linter knows. Ids are stable: never rename one, retire it instead.

extension LintRule {
    // The payload as a whole
    public static let payloadEmpty = LintRule("PAYLOAD-EMPTY", .error, "The payload must not be empty.", reason: .payloadEmpty)
    public static let payloadJSON = LintRule("PAYLOAD-JSON", .error, "The payload must be valid JSON (UTF-8, strict RFC 8259).")
    public static let payloadNotObject = LintRule("PAYLOAD-NOT-OBJECT", .error, "The payload must be a JSON object.")
    public static let payloadTooLarge = LintRule(
        "PAYLOAD-TOO-LARGE", .error, "The payload must fit the limit: 4096 bytes, 5120 for VoIP and broadcasts.",
        reason: .payloadTooLarge)
    public static let payloadNoAPS = LintRule("PAYLOAD-NO-APS", .error, "Alert, background, Live Activity, widgets and controls payloads need an aps dictionary.")
    public static let duplicateKey = LintRule("PAYLOAD-DUPLICATE-KEY", .warning, "A key must appear once per object.")

    // Headers and the device token
    public static let pushType = LintRule("HDR-PUSH-TYPE", .error, "apns-push-type must be a known push type.", reason: .invalidPushType)
    public static let priority = LintRule("HDR-PRIORITY", .error, "apns-priority must be 10, 5 or 1.", reason: .badPriority)
    public static let priorityForType = LintRule(
        "HDR-PRIORITY-TYPE", .warning, "apns-priority should be one Apple documents for the push type.")
    public static let expiration = LintRule(
        "HDR-EXPIRATION", .error, "apns-expiration must be UNIX seconds, or 0.", reason: .badExpirationDate)
    public static let expirationMilliseconds = LintRule(
        "HDR-EXPIRATION-MS", .warning, "apns-expiration is in seconds, not milliseconds.")
    public static let expirationPast = LintRule("HDR-EXPIRATION-PAST", .warning, "apns-expiration should be in the future.")
    public static let expirationFar = LintRule("HDR-EXPIRATION-FAR", .info, "APNs stores notifications for about 30 days at most.")
    public static let pushToTalkExpiration = LintRule(
        "HDR-PTT-EXPIRATION", .warning, "Push-to-talk pushes should expire at once (apns-expiration: 0).")
    public static let collapseID = LintRule(
        "HDR-COLLAPSE-ID", .error, "apns-collapse-id must be 1 to 64 bytes of UTF-8.", reason: .badCollapseId)
    public static let apnsID = LintRule("HDR-APNS-ID", .error, "apns-id must be a canonical UUID.", reason: .badMessageId)
    public static let apnsIDCase = LintRule("HDR-APNS-ID-CASE", .info, "apns-id is lowercase on the wire; APNs answers in lowercase.")
    public static let topic = LintRule("HDR-TOPIC", .error, "apns-topic must be a bundle id.", reason: .badTopic)
    public static let topicSuffix = LintRule(
        "HDR-TOPIC-SUFFIX", .error, "apns-topic must carry the suffix the push type requires.", reason: .badTopic)
    public static let token = LintRule(
        "TOKEN-FORMAT", .error, "A device token is hexadecimal with an even number of digits.", reason: .badDeviceToken)
    public static let tokenLength = LintRule("TOKEN-LENGTH", .info, "Device tokens are 64 hex digits today; a shorter one may be cut.")

    // The aps dictionary
    public static let apsNotObject = LintRule("APS-NOT-OBJECT", .error, "aps must be a dictionary.")
    public static let apsType = LintRule("APS-TYPE", .error, "Each aps key has the type Apple documents.")
    public static let apsUnknownKey = LintRule(
        "APS-UNKNOWN-KEY", .warning, "Custom keys go beside aps, not inside it: APNs and the device ignore them there.")
    public static let alertUnknownKey = LintRule("APS-ALERT-UNKNOWN-KEY", .warning, "aps.alert holds only the keys Apple documents.")
    public static let legacyKey = LintRule("APS-LEGACY-KEY", .info, "A legacy alert key that current systems ignore.")
    public static let nothingToShow = LintRule(
        "APS-NOTHING-TO-SHOW", .warning, "An alert push should carry an alert, a sound or a badge.")
    public static let emptyAlert = LintRule("APS-EMPTY-ALERT", .warning, "An alert should have a title, subtitle or body.")
    public static let silentAsAlert = LintRule(
        "APS-SILENT-AS-ALERT", .warning, "A silent payload should be sent as push type background with priority 5.")
    public static let backgroundAlert = LintRule(
        "APS-BG-ALERT", .warning, "A background push carries only content-available: no alert, sound or badge.")
    public static let backgroundContentAvailable = LintRule(
        "APS-BG-CONTENT-AVAILABLE", .error, "A background push needs content-available: 1.")
    public static let backgroundPriority = LintRule(
        "APS-BG-PRIORITY", .error, "Background pushes must use priority 5.", reason: .badPriority)
    public static let contentAvailableValue = LintRule("APS-CONTENT-AVAILABLE-VALUE", .warning, "content-available is 1 or absent.")
    public static let mutableContentValue = LintRule("APS-MUTABLE-CONTENT-VALUE", .warning, "mutable-content is 1 or absent.")
    public static let mutableWithoutAlert = LintRule(
        "APS-MUTABLE-NO-ALERT", .warning, "A service extension runs only for a visible alert with mutable-content: 1.")
    public static let badgeNegative = LintRule("APS-BADGE-NEGATIVE", .warning, "badge is 0 (clear) or a positive number.")
    public static let soundVolume = LintRule("APS-SOUND-VOLUME", .warning, "A critical sound's volume is between 0 and 1.")
    public static let criticalSoundLevel = LintRule(
        "APS-CRITICAL-SOUND-LEVEL", .warning, "A critical sound goes with interruption-level: critical.")
    public static let criticalEntitlement = LintRule(
        "APS-CRITICAL-ENTITLEMENT", .info, "Critical alerts need Apple's critical alerts entitlement.")
    public static let timeSensitiveCapability = LintRule(
        "APS-TIME-SENSITIVE", .info, "Time-sensitive alerts need the Time Sensitive Notifications capability.")
    public static let interruptionLevel = LintRule(
        "APS-INTERRUPTION-LEVEL", .warning, "interruption-level is passive, active, time-sensitive or critical.")
    public static let passiveSound = LintRule("APS-PASSIVE-SOUND", .warning, "Passive notifications make no sound.")
    public static let relevanceRange = LintRule("APS-RELEVANCE-RANGE", .warning, "relevance-score is between 0 and 1 (any number for Live Activities).")
    public static let locArgsWithoutKey = LintRule("APS-LOC-ARGS-NO-KEY", .warning, "Localization arguments need their loc-key.")
    public static let contentChanged = LintRule(
        "APS-CONTENT-CHANGED", .error, "Widgets and controls pushes need content-changed: true.")
    public static let contentChangedElsewhere = LintRule(
        "APS-CONTENT-CHANGED-IGNORED", .info, "content-changed matters only to widgets and controls pushes.")

    // Live Activities
    public static let liveActivityEvent = LintRule("LA-EVENT", .error, "A Live Activity push needs event: start, update or end.")
    public static let liveActivityTimestamp = LintRule("LA-TIMESTAMP", .error, "A Live Activity push needs a timestamp in UNIX seconds.")
    public static let liveActivityPriority = LintRule(
        "LA-PRIORITY", .error, "Live Activity pushes use priority 10 or 5, not 1.", reason: .badPriority)
    public static let liveActivityMilliseconds = LintRule(
        "LA-MILLISECONDS", .error, "Live Activity dates are UNIX seconds, not milliseconds.")
    public static let liveActivityContentState = LintRule(
        "LA-CONTENT-STATE", .error, "start and update need a content-state dictionary.")
    public static let liveActivityStartAttributes = LintRule(
        "LA-START-ATTRIBUTES", .error, "start needs attributes-type and attributes.")
    public static let liveActivityStartAlert = LintRule("LA-START-ALERT", .error, "start needs an alert.")
    public static let liveActivityStartOnly = LintRule(
        "LA-START-ONLY", .warning, "attributes, attributes-type and input-push-* are read only on start.")
    public static let liveActivityPushInputs = LintRule(
        "LA-PUSH-INPUTS", .error, "input-push-token and input-push-channel cannot both be given.")
    public static let liveActivityDismissal = LintRule("LA-DISMISSAL-DATE", .warning, "dismissal-date is read only on end.")
    public static let liveActivitySound = LintRule("LA-SOUND", .warning, "A Live Activity's sound goes inside aps.alert.")
    public static let liveActivityKeysElsewhere = LintRule(
        "LA-KEYS-WRONG-TYPE", .warning, "Live Activity keys take effect only with push type liveactivity.")

    // Broadcasts, MDM, simulator files
    public static let broadcastPushType = LintRule(
        "BCAST-PUSH-TYPE", .error, "Broadcasts carry Live Activity pushes only.", reason: .invalidPushType)
    public static let broadcastMissingPushType = LintRule(
        "BCAST-MISSING-PUSH-TYPE", .error, "A broadcast names its push type: apns-push-type: liveactivity.", reason: .missingPushType)
    public static let broadcastStart = LintRule("BCAST-START", .error, "A broadcast cannot start a Live Activity.")
    public static let broadcastTopic = LintRule(
        "BCAST-TOPIC", .error, "A broadcast names the bare bundle id, without a push-type suffix.", reason: .topicDisallowed)
    public static let mdmPushMagic = LintRule("MDM-PUSH-MAGIC", .error, "An MDM push is {\"mdm\": \"<PushMagic>\"}.")
    public static let mdmAPS = LintRule("MDM-APS", .warning, "An MDM push carries no aps dictionary.")
    public static let simulatorBundle = LintRule(
        "SIM-TARGET-BUNDLE", .error, "A simulator file names its app in \"Simulator Target Bundle\".")

    /// Every rule, in catalogue order.
    public static let all: [LintRule] = [
        payloadEmpty, payloadJSON, payloadNotObject, payloadTooLarge, payloadNoAPS, duplicateKey,
        pushType, priority, priorityForType, expiration, expirationMilliseconds, expirationPast, expirationFar,
        pushToTalkExpiration, collapseID, apnsID, apnsIDCase, topic, topicSuffix, token, tokenLength,
        apsNotObject, apsType, apsUnknownKey, alertUnknownKey, legacyKey, nothingToShow, emptyAlert, silentAsAlert,
        backgroundAlert, backgroundContentAvailable, backgroundPriority, contentAvailableValue, mutableContentValue,
        mutableWithoutAlert, badgeNegative, soundVolume, criticalSoundLevel, criticalEntitlement,
        timeSensitiveCapability, interruptionLevel, passiveSound, relevanceRange, locArgsWithoutKey, contentChanged,
        contentChangedElsewhere,
        liveActivityEvent, liveActivityTimestamp, liveActivityPriority, liveActivityMilliseconds, liveActivityContentState,
        liveActivityStartAttributes, liveActivityStartAlert, liveActivityStartOnly, liveActivityPushInputs,
        liveActivityDismissal, liveActivitySound, liveActivityKeysElsewhere,
        broadcastPushType, broadcastMissingPushType, broadcastStart, broadcastTopic, mdmPushMagic, mdmAPS, simulatorBundle,
    ]
}
