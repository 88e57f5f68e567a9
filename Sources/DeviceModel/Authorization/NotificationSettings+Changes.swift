extension NotificationSettings {
    /// The fields that differ from `before`, as `alertSetting enabled -> disabled, ...`, for the timeline.
    func changes(from before: NotificationSettings) -> String {
        let old = Mirror(reflecting: before).children
        let new = Mirror(reflecting: self).children
        return zip(old, new).compactMap { old, new -> String? in
            let (was, now) = (String(describing: old.value), String(describing: new.value))
            guard was != now, let label = new.label else { return nil }
            return "\(label) \(was) -> \(now)"
        }
        .joined(separator: ", ")
    }
}
