import APNs

// Reading a profile from JSON. The layout (docs/DEVICE.md, "Device profiles"):
//   { "app": { "bundle-id", "aps-environment", "entitlements", "background-modes", "categories",
//              "delegate", "service-extension", "push-to-start", "live-activity-frequent-updates" },
//     "user": { "authorization", "critical-alerts" },
//     "device": { "locked", "seed", "foreground-without-delegate", "scheduled-summary" },
//     "script": [ { "<step>": <argument> }, ... ] }

extension DeviceProfile {
    /// Parses a profile; the error names the field (`app.categories[0].actions[1].id: is missing`).
    public init(json bytes: some Collection<UInt8>) throws(FieldError) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: Array(bytes))
        } catch {
            throw FieldError(field: "profile", message: "is not JSON: \(error)")
        }
        var root = try ProfileReader(value, at: "")
        guard var app = try root.object("app") else { throw FieldError(field: "app", message: "is missing") }
        self.init(app: try Self.appConfiguration(&app))
        categories = try Self.categories(&app)
        if let delegate = try app.object("delegate") {
            var reader = delegate
            var willPresent: PresentationOptions?
            if let names = try reader.strings("will-present") {
                willPresent = try Self.presentationOptions(names, field: reader.field("will-present"))
            }
            self.delegate = DelegateChoice(
                willPresent: willPresent, didReceive: try reader.bool("did-receive") ?? false)
            try reader.finish()
        }
        if var reader = try app.object("service-extension") {
            let behaviours = ServiceExtensionChoice.Behaviour.allCases.map { ($0.rawValue, $0) }
            guard let behaviour = try reader.choice("behaviour", behaviours) else {
                throw FieldError(field: reader.field("behaviour"), message: "is missing")
            }
            serviceExtension = ServiceExtensionChoice(
                behaviour: behaviour, title: try reader.string("title"), subtitle: try reader.string("subtitle"),
                body: try reader.string("body"), after: try reader.seconds("after") ?? 0)
            try reader.finish()
        }
        pushToStartTypes = try app.strings("push-to-start") ?? []
        try app.finish()

        if var reader = try root.object("user") {
            let answers: [(String, PromptAnswer)] = [("allow", .allow), ("dont-allow", .dontAllow)]
            user = ScriptedUser(
                authorizationAnswer: try reader.choice("authorization", answers) ?? .allow,
                criticalAlertAnswer: try reader.choice("critical-alerts", answers) ?? .allow)
            try reader.finish()
        }
        if var reader = try root.object("device") {
            locked = try reader.bool("locked") ?? false
            if let seed = reader.value("seed") {
                guard let number = seed.intValue, number >= 0 else {
                    throw FieldError(field: "device.seed", message: "must be a whole number, 0 or more")
                }
                self.seed = UInt64(number)
            }
            let choices: [(String, ForegroundWithoutDelegate)] = [
                ("not-shown", .notShown), ("present", .presentAsInBackground),
            ]
            deviceConfiguration.foregroundWithoutDelegate =
                try reader.choice("foreground-without-delegate", choices) ?? .notShown
            try reader.finish()
        }
        guard let steps = root.value("script") else { throw FieldError(field: "script", message: "is missing") }
        guard let items = steps.arrayValue else {
            throw FieldError(field: "script", message: "must be an array of steps, not \(steps.kindDescription)")
        }
        script = []
        for (index, item) in items.enumerated() {
            script.append(try ProfileStep(json: item, at: "script[\(index)]"))
        }
        try root.finish()
    }

    private static func appConfiguration(_ app: inout ProfileReader) throws(FieldError) -> AppConfiguration {
        let bundleID = try app.requiredString("bundle-id")
        let environments: [(String, APSEnvironment?)] = [
            ("development", .development), ("production", .production), ("none", nil),
        ]
        var entitlements = Entitlements(apsEnvironment: try app.choice("aps-environment", environments) ?? .development)
        for (index, name) in (try app.strings("entitlements") ?? []).enumerated() {
            switch name {
            case "critical-alerts": entitlements.criticalAlerts = true
            case "time-sensitive": entitlements.timeSensitive = true
            case "filtering": entitlements.filtering = true
            default:
                throw FieldError(
                    field: "app.entitlements[\(index)]",
                    message: "'\(name)' is not one of 'critical-alerts', 'time-sensitive', 'filtering'")
            }
        }
        var modes: Set<BackgroundMode> = []
        for (index, name) in (try app.strings("background-modes") ?? []).enumerated() {
            guard let mode = BackgroundMode(rawValue: name) else {
                throw FieldError(
                    field: "app.background-modes[\(index)]",
                    message: "'\(name)' is not one of 'remote-notification', 'voip', 'fetch', 'processing'")
            }
            modes.insert(mode)
        }
        return AppConfiguration(
            bundleID: bundleID, entitlements: entitlements, backgroundModes: modes,
            supportsLiveActivitiesFrequentUpdates: try app.bool("live-activity-frequent-updates") ?? false)
    }

    private static func categories(_ app: inout ProfileReader) throws(FieldError) -> [NotificationCategory] {
        guard let value = app.value("categories") else { return [] }
        guard let items = value.arrayValue else {
            throw FieldError(field: "app.categories", message: "must be an array of categories")
        }
        var result: [NotificationCategory] = []
        for (index, item) in items.enumerated() {
            var reader = try ProfileReader(item, at: "app.categories[\(index)]")
            let identifier = try reader.requiredString("id")
            var options: NotificationCategoryOptions = []
            for name in try reader.strings("options") ?? [] {
                options.insert(
                    try ProfileReader.pick(
                        name,
                        [
                            ("custom-dismiss-action", .customDismissAction), ("allow-in-car-play", .allowInCarPlay),
                            ("hidden-previews-show-title", .hiddenPreviewsShowTitle),
                            ("hidden-previews-show-subtitle", .hiddenPreviewsShowSubtitle),
                        ], field: reader.field("options")))
            }
            var actions: [NotificationAction] = []
            if let list = reader.value("actions") {
                guard let entries = list.arrayValue else {
                    throw FieldError(field: reader.field("actions"), message: "must be an array of actions")
                }
                for (position, entry) in entries.enumerated() {
                    actions.append(try action(entry, at: reader.field("actions") + "[\(position)]"))
                }
            }
            result.append(NotificationCategory(identifier: identifier, actions: actions, options: options))
            try reader.finish()
        }
        return result
    }

    private static func action(_ value: JSONValue, at path: String) throws(FieldError) -> NotificationAction {
        var reader = try ProfileReader(value, at: path)
        let identifier = try reader.requiredString("id")
        let title = try reader.string("title") ?? identifier
        var options: NotificationActionOptions = []
        for name in try reader.strings("options") ?? [] {
            options.insert(
                try ProfileReader.pick(
                    name,
                    [
                        ("foreground", .foreground), ("destructive", .destructive),
                        ("authentication-required", .authenticationRequired),
                    ], field: reader.field("options")))
        }
        let action: NotificationAction
        if var input = try reader.object("text-input") {
            action = TextInputNotificationAction(
                identifier: identifier, title: title, options: options,
                textInputButtonTitle: try input.string("button") ?? "Send",
                textInputPlaceholder: try input.string("placeholder") ?? "")
            try input.finish()
        } else {
            action = NotificationAction(identifier: identifier, title: title, options: options)
        }
        try reader.finish()
        return action
    }

    static func presentationOptions(_ names: [String], field: String) throws(FieldError) -> PresentationOptions {
        var options: PresentationOptions = []
        for name in names {
            options.insert(
                try ProfileReader.pick(
                    name, [("banner", .banner), ("list", .list), ("sound", .sound), ("badge", .badge)], field: field))
        }
        return options
    }
}
