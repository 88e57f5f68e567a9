import APNs

// A script step is an object with one key, the step's name, and its argument:
//   {"launch": {}}  {"background": {}}  {"foreground": {}}  {"force-quit": {}}  {"lock": {}}  {"unlock": {}}
//   {"request-authorization": ["alert", "sound", "badge"]}  {"register": {}}
//   {"wait-for-push": {"count": 1, "timeout": 60}}  {"wait": 30}
//   {"push": {"payload": {...}, "push-type": "alert", "collapse-id": "m1", "to": "device", "priority": 10}}
//   {"open": {"notification": "m1"}}  {"dismiss": {}}
//   {"tap-action": {"action": "reply", "text": "On my way", "notification": "m1"}}
//   {"add-local": {"id": "r1", "title": "...", "body": "...", "after": 60, "repeats": false}}
//   {"start-activity": {"attributes-type": "T", "attributes": {...}, "content-state": {...}, "channel": "b64"}}
//   {"end-activity": {"dismiss": "immediately"}}
//   {"rotate": {"reason": "backup-restore"}}  {"reinstall": {}}
//   {"focus": {"name": "Work", "allowed-apps": ["com.example.chat"], "time-sensitive": true}}  {"focus-off": {}}
//   {"scheduled-summary": {"times": ["08:00", "18:00"]}}
//   {"add-local-region": {"id": "r1", "title": "...", "latitude": 52.52, "longitude": 13.405, "radius": 100,
//                         "on-entry": true, "on-exit": false, "repeats": false}}
//   {"move": {"latitude": 52.52, "longitude": 13.405}}  {"location-authorization": "when-in-use"}
// "notification" defaults to the newest one in Notification Center.

extension ProfileStep {
    static let names = [
        "launch", "background", "foreground", "force-quit", "lock", "unlock", "request-authorization", "register",
        "wait-for-push", "wait", "push", "open", "dismiss", "tap-action", "add-local", "start-activity",
        "end-activity", "rotate", "reinstall", "focus", "focus-off", "scheduled-summary", "add-local-region", "move",
        "location-authorization",
    ]

    init(json value: JSONValue, at path: String) throws(FieldError) {
        guard let object = value.objectValue, object.count == 1, let member = object.members.first else {
            throw FieldError(
                field: path,
                message: "must be an object with one key, the step (one of \(Self.names.joined(separator: ", ")))")
        }
        let field = "\(path).\(member.key)"
        let argument = member.value
        switch member.key {
        case "launch": self = .launch
        case "background": self = .moveToBackground
        case "foreground": self = .moveToForeground
        case "force-quit": self = .forceQuit
        case "lock": self = .lock
        case "unlock": self = .unlock
        case "register": self = .register
        case "reinstall": self = .reinstall
        case "focus-off": self = .focus(nil)
        case "move":
            var reader = try ProfileReader(argument, at: field)
            self = .move(try Self.coordinate(&reader))
            try reader.finish()
        case "location-authorization":
            let choices: [(String, LocationAuthorization)] = [
                ("when-in-use", .authorizedWhenInUse), ("always", .authorizedAlways), ("denied", .denied),
                ("not-determined", .notDetermined),
            ]
            self = .locationAuthorization(try ProfileReader.pick(argument.stringValue ?? "", choices, field: field))
        case "add-local-region":
            var reader = try ProfileReader(argument, at: field)
            let identifier = try reader.requiredString("id")
            let content = NotificationContent(
                title: try reader.string("title") ?? "", subtitle: try reader.string("subtitle") ?? "",
                body: try reader.string("body") ?? "", categoryIdentifier: try reader.string("category") ?? "")
            let center = try Self.coordinate(&reader)
            guard let radius = reader.value("radius")?.doubleValue else {
                throw FieldError(field: reader.field("radius"), message: "must be a number of meters")
            }
            let region = CircularRegion(
                identifier: identifier, center: center, radius: radius,
                notifyOnEntry: try reader.bool("on-entry") ?? true, notifyOnExit: try reader.bool("on-exit") ?? false)
            let trigger: LocationTrigger
            do {
                trigger = try LocationTrigger(region: region, repeats: try reader.bool("repeats") ?? false)
            } catch {
                throw FieldError(field: "\(field).\(error.field)", message: error.message)
            }
            self = .addLocationRequest(identifier: identifier, content: content, trigger: trigger)
            try reader.finish()
        case "scheduled-summary":
            var reader = try ProfileReader(argument, at: field)
            var times: [CalendarComponents] = []
            for (index, text) in (try reader.strings("times") ?? ["08:00", "18:00"]).enumerated() {
                let parts = text.split(separator: ":", omittingEmptySubsequences: false)
                guard parts.count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour),
                    (0...59).contains(minute)
                else {
                    throw FieldError(
                        field: reader.field("times") + "[\(index)]", message: "'\(text)' is not a time of day (HH:MM)")
                }
                times.append(CalendarComponents(hour: hour, minute: minute))
            }
            self = .scheduledSummary(times: times)
            try reader.finish()
        case "focus":
            var reader = try ProfileReader(argument, at: field)
            self = .focus(
                Focus(
                    name: try reader.string("name") ?? "Do Not Disturb",
                    allowedApps: Set(try reader.strings("allowed-apps") ?? []),
                    allowsTimeSensitive: try reader.bool("time-sensitive") ?? true))
            try reader.finish()
        case "rotate":
            var reader = try ProfileReader(argument, at: field)
            let reasons: [(String, TokenRotation)] = [
                ("backup-restore", .backupRestore), ("new-device", .newDevice), ("os-reinstall", .osReinstall),
                ("erase", .erase),
            ]
            self = .rotateTokens(try reader.choice("reason", reasons) ?? .backupRestore)
            try reader.finish()
        case "request-authorization":
            guard let items = argument.arrayValue else {
                throw FieldError(field: field, message: "must be an array of options, such as [\"alert\", \"sound\"]")
            }
            let choices: [(String, AuthorizationOptions)] = [
                ("alert", .alert), ("sound", .sound), ("badge", .badge), ("provisional", .provisional),
                ("critical-alert", .criticalAlert), ("car-play", .carPlay),
                ("provides-app-notification-settings", .providesAppNotificationSettings),
            ]
            var options: AuthorizationOptions = []
            for (index, item) in items.enumerated() {
                options.insert(try ProfileReader.pick(item.stringValue ?? "", choices, field: "\(field)[\(index)]"))
            }
            self = .requestAuthorization(options)
        case "wait":
            guard let seconds = argument.doubleValue, seconds.isFinite, seconds >= 0 else {
                throw FieldError(field: field, message: "must be a number of seconds, 0 or more")
            }
            self = .wait(seconds)
        case "wait-for-push":
            var reader = try ProfileReader(argument, at: field)
            var count = 1
            if let value = reader.value("count") {
                guard let number = value.intValue, number > 0 else {
                    throw FieldError(field: reader.field("count"), message: "must be a whole number above 0")
                }
                count = number
            }
            self = .waitForPush(count: count, timeout: try reader.seconds("timeout") ?? 60)
            try reader.finish()
        case "push": self = .push(try Self.push(argument, at: field))
        case "open", "dismiss":
            var reader = try ProfileReader(argument, at: field)
            let notification = try reader.string("notification")
            self = member.key == "open" ? .open(notification: notification) : .dismiss(notification: notification)
            try reader.finish()
        case "tap-action":
            var reader = try ProfileReader(argument, at: field)
            self = .chooseAction(
                try reader.requiredString("action"), text: try reader.string("text"),
                notification: try reader.string("notification"))
            try reader.finish()
        case "add-local":
            var reader = try ProfileReader(argument, at: field)
            let identifier = try reader.requiredString("id")
            let content = NotificationContent(
                title: try reader.string("title") ?? "", subtitle: try reader.string("subtitle") ?? "",
                body: try reader.string("body") ?? "", categoryIdentifier: try reader.string("category") ?? "")
            self = .addLocal(
                identifier: identifier, content: content, after: try reader.seconds("after"),
                repeats: try reader.bool("repeats") ?? false)
            try reader.finish()
        case "start-activity":
            var reader = try ProfileReader(argument, at: field)
            let type = try reader.requiredString("attributes-type")
            let attributes = try Self.object(&reader, "attributes")
            let contentState = try Self.object(&reader, "content-state")
            if let channel = try reader.string("channel") {
                self = .startChannelActivity(
                    attributesType: type, attributes: attributes, contentState: contentState, channelID: channel)
            } else {
                self = .startActivity(attributesType: type, attributes: attributes, contentState: contentState)
            }
            try reader.finish()
        case "end-activity":
            var reader = try ProfileReader(argument, at: field)
            let when = try reader.choice("dismiss", [("immediately", true), ("default", false)]) ?? false
            self = .endActivity(dismissImmediately: when)
            try reader.finish()
        default:
            throw FieldError(
                field: field, message: "is not a step (one of \(Self.names.joined(separator: ", ")))")
        }
    }

    private static func coordinate(_ reader: inout ProfileReader) throws(FieldError) -> Coordinate {
        guard let latitude = reader.value("latitude")?.doubleValue else {
            throw FieldError(field: reader.field("latitude"), message: "must be a number of degrees")
        }
        guard let longitude = reader.value("longitude")?.doubleValue else {
            throw FieldError(field: reader.field("longitude"), message: "must be a number of degrees")
        }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    private static func object(_ reader: inout ProfileReader, _ key: String) throws(FieldError) -> JSONObject {
        guard let value = reader.value(key) else { return JSONObject() }
        guard let object = value.objectValue else {
            throw FieldError(field: reader.field(key), message: "must be an object, not \(value.kindDescription)")
        }
        return object
    }

    private static func push(_ argument: JSONValue, at field: String) throws(FieldError) -> ProfilePush {
        var reader = try ProfileReader(argument, at: field)
        guard let payload = reader.value("payload") else {
            throw FieldError(field: reader.field("payload"), message: "is missing")
        }
        guard payload.objectValue != nil else {
            throw FieldError(
                field: reader.field("payload"), message: "must be an object, not \(payload.kindDescription)")
        }
        let types: [(String, PushType)] = [
            ("alert", .alert), ("background", .background), ("liveactivity", .liveactivity),
        ]
        let pushType = try reader.choice("push-type", types) ?? .alert
        let target: ProfilePush.Target
        switch try reader.string("to") ?? "device" {
        case "device": target = .device
        case "activity": target = .latestActivity
        case let text where text.hasPrefix("push-to-start:"):
            target = .pushToStart(String(text.dropFirst("push-to-start:".count)))
        case let text where text.hasPrefix("channel:"):
            target = .channel(String(text.dropFirst("channel:".count)))
            guard pushType == .liveactivity else {
                throw FieldError(
                    field: reader.field("push-type"), message: "must be liveactivity for a broadcast (to: channel:ID)")
            }
        case let text:
            throw FieldError(
                field: reader.field("to"),
                message: "'\(text)' is not 'device', 'activity', 'push-to-start:<attributes type>' or 'channel:<id>'")
        }
        var priority = 10
        if let value = reader.value("priority") {
            guard let number = value.intValue, [1, 5, 10].contains(number) else {
                throw FieldError(field: reader.field("priority"), message: "must be 10, 5 or 1")
            }
            priority = number
        }
        let push = ProfilePush(
            target: target, pushType: pushType, collapseID: try reader.string("collapse-id"), payload: payload,
            priority: priority)
        try reader.finish()
        return push
    }
}
