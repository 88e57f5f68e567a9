/// The service extension a profile describes: a `ScriptedServiceExtension` whose rewrite changes only the
/// text the profile names and keeps the rest of the request's content (category, sound, badge).
final class ProfileServiceExtension: NotificationServiceExtension {
    let choice: DeviceProfile.ServiceExtensionChoice
    private weak var device: Device?
    private var current: ScriptedServiceExtension?

    init(_ choice: DeviceProfile.ServiceExtensionChoice, device: Device) {
        self.choice = choice
        self.device = device
    }

    func didReceive(
        _ request: NotificationRequest, withContentHandler contentHandler: @escaping (NotificationContent) -> Void
    ) {
        guard let device else { return }
        var content = request.content
        if let title = choice.title { content.title = title }
        if let subtitle = choice.subtitle { content.subtitle = subtitle }
        if let body = choice.body { content.body = body }
        let behaviour: ScriptedServiceExtension.Behaviour =
            switch choice.behaviour {
            case .passThrough: .passThrough
            case .rewrite: .rewrite(content, after: choice.after)
            case .rewriteOnExpiry: .rewriteOnExpiry(content)
            case .neverCall: .neverCall
            case .callTwice: .callTwice(content)
            case .suppress: .suppress
            }
        let scripted = ScriptedServiceExtension(behaviour, device: device)
        current = scripted
        scripted.didReceive(request, withContentHandler: contentHandler)
    }

    func serviceExtensionTimeWillExpire() {
        current?.serviceExtensionTimeWillExpire()
    }
}
