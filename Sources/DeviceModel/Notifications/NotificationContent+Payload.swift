import APNs

extension NotificationContent {
    /// The content iOS builds from an APNs payload, before any service extension.
    ///
    /// Localized text: the model has no `Localizable.strings`, so it shows the key with its arguments put in
    /// for `%@` and `%n$@`, which is what iOS shows when the key is missing from the app's strings.
    init(aps: APS, userInfo: JSONObject) {
        self.init(userInfo: userInfo)
        switch aps.alert {
        case .body(let text):
            body = text
        case .content(let alert):
            title = alert.title.map(Self.text) ?? alert.titleLocKey.map { Self.format($0, alert.titleLocArgs) } ?? ""
            subtitle = alert.subtitle ?? alert.subtitleLocKey.map { Self.format($0, alert.subtitleLocArgs) } ?? ""
            body = alert.body.map(Self.text) ?? alert.locKey.map { Self.format($0, alert.locArgs) } ?? ""
            summaryArgument = alert.summaryArg ?? ""
            summaryArgumentCount = max(alert.summaryArgCount ?? 1, 0)
        case nil:
            break
        }
        badge = aps.badge
        sound = aps.sound.map(Self.sound)
        categoryIdentifier = aps.category ?? ""
        threadIdentifier = aps.threadID ?? ""
        interruptionLevel = aps.interruptionLevel ?? .active
        relevanceScore = min(max(aps.relevanceScore ?? 0, 0), 1)
        targetContentIdentifier = aps.targetContentID
        filterCriteria = aps.filterCriteria
    }

    private static func text(_ text: AlertText) -> String {
        switch text {
        case .plain(let string): string
        case .localized(let key, let arguments): format(key, arguments)
        }
    }

    private static func sound(_ sound: Sound) -> NotificationSound {
        switch sound {
        case .named("default"): .default
        case .named(let name): .named(name)
        case .dictionary(let dictionary) where dictionary.critical == 1:
            .critical(name: dictionary.name == "default" ? nil : dictionary.name, volume: dictionary.volume)
        case .dictionary(let dictionary):
            dictionary.name.map { $0 == "default" ? .default : .named($0) } ?? .default
        }
    }

    /// `format` with `%@` taking the arguments in turn and `%n$@` the n-th; `%%` is a percent sign.
    static func format(_ format: String, _ arguments: [String]?) -> String {
        let arguments = arguments ?? []
        var output = ""
        var next = 0
        var characters = Substring(format)
        while let first = characters.first {
            characters = characters.dropFirst()
            guard first == "%" else {
                output.append(first)
                continue
            }
            if characters.first == "%" {
                output.append("%")
                characters = characters.dropFirst()
            } else if characters.first == "@" {
                output += next < arguments.count ? arguments[next] : ""
                next += 1
                characters = characters.dropFirst()
            } else if let dollar = characters.firstIndex(of: "$"), let position = Int(characters[..<dollar]),
                characters[characters.index(after: dollar)...].first == "@"
            {
                output += position >= 1 && position <= arguments.count ? arguments[position - 1] : ""
                characters = characters[characters.index(dollar, offsetBy: 2)...]
            } else {
                output.append("%")
            }
        }
        return output
    }
}
