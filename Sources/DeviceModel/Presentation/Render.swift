// What a lock screen banner shows, for the timeline, the console and `herald doctor`.
//
// The rule (Apple documents none; the model's choice, from an iPhone at the default text size): a banner
// line holds 40 characters; the title and the subtitle get one line each, the body four. Text is wrapped at
// spaces (a word longer than a line is cut), a newline in the body starts a new line, and text that does not
// fit ends in "…" on its last line. Characters are counted as the user sees them (grapheme clusters).

/// What a notification shows on a lock screen banner.
public struct RenderedNotification: Sendable, Hashable, CustomStringConvertible {
    public var title: String
    public var subtitle: String
    /// The body as shown: at most `RenderRule.bodyLines` lines joined by "\n".
    public var body: String
    /// Whether anything was cut.
    public var truncated: Bool

    public init(title: String, subtitle: String, body: String, truncated: Bool) {
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.truncated = truncated
    }

    /// `"Title" / "Subtitle" / "Body"`, empty parts left out.
    public var description: String {
        [title, subtitle, body].filter { !$0.isEmpty }.map { "\"\($0)\"" }.joined(separator: " / ")
    }

    /// ` "Title" / "Body"` with a leading space, or nothing when there is no text.
    var quoted: String {
        description.isEmpty ? "" : " " + description.replacingNewlines
    }
}

/// The banner's measures.
public enum RenderRule {
    public static let lineWidth = 40
    public static let titleLines = 1
    public static let subtitleLines = 1
    public static let bodyLines = 4
}

/// What the banner for this content shows.
public func render(_ content: NotificationContent) -> RenderedNotification {
    let title = fit(content.title, lines: RenderRule.titleLines)
    let subtitle = fit(content.subtitle, lines: RenderRule.subtitleLines)
    let body = fit(content.body, lines: RenderRule.bodyLines)
    return RenderedNotification(
        title: title.text, subtitle: subtitle.text, body: body.text,
        truncated: title.truncated || subtitle.truncated || body.truncated)
}

/// What the banner for this presentation shows.
public func render(_ presentation: Presentation) -> RenderedNotification {
    render(presentation.notification.request.content)
}

/// `text` wrapped into at most `lines` lines of `RenderRule.lineWidth`.
func fit(_ text: String, lines maximum: Int) -> (text: String, truncated: Bool) {
    let width = RenderRule.lineWidth
    var lines: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
        lines += wrap(paragraph, width: width)
    }
    if maximum == 1 {
        // A one-line field does not wrap: it is cut at the line's end.
        let joined = text.split(separator: "\n").joined(separator: " ")
        guard joined.count > width else { return (joined, false) }
        return (String(joined.prefix(width - 1)) + "…", true)
    }
    guard lines.count > maximum else { return (lines.joined(separator: "\n"), false) }
    var kept = Array(lines.prefix(maximum))
    var last = kept[maximum - 1]
    if last.count >= width { last = String(last.prefix(width - 1)) }
    kept[maximum - 1] = last + "…"
    return (kept.joined(separator: "\n"), true)
}

/// Greedy wrapping at spaces; a word longer than a line is cut into pieces.
private func wrap(_ paragraph: Substring, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in paragraph.split(separator: " ") {
        var word = Substring(word)
        while word.count > width {
            if !line.isEmpty {
                lines.append(line)
                line = ""
            }
            lines.append(String(word.prefix(width)))
            word = word.dropFirst(width)
        }
        if word.isEmpty { continue }
        if line.isEmpty {
            line = String(word)
        } else if line.count + 1 + word.count <= width {
            line += " " + word
        } else {
            lines.append(line)
            line = String(word)
        }
    }
    lines.append(line)
    return lines
}

extension String {
    fileprivate var replacingNewlines: String {
        split(separator: "\n", omittingEmptySubsequences: false).joined(separator: " | ")
    }
}

/// What a stack in Notification Center shows: its leading (newest) notification as a banner shows it,
/// the thread it groups, how many it holds and the summary line under the lead.
public struct RenderedGroup: Sendable, Hashable {
    public var lead: RenderedNotification
    /// The thread (`thread-id`); empty: the app's group for notifications without one.
    public var threadIdentifier: String
    public var count: Int
    /// "2 more notifications", or the category's format; empty for a group of one.
    public var summaryText: String

    public init(lead: RenderedNotification, threadIdentifier: String, count: Int, summaryText: String) {
        self.lead = lead
        self.threadIdentifier = threadIdentifier
        self.count = count
        self.summaryText = summaryText
    }
}

/// What the stack for this group shows.
public func render(_ group: NotificationGroup) -> RenderedGroup {
    let lead =
        group.notifications.first.map { render($0.request.content) }
        ?? RenderedNotification(title: "", subtitle: "", body: "", truncated: false)
    return RenderedGroup(
        lead: lead, threadIdentifier: group.threadIdentifier, count: group.notifications.count,
        summaryText: group.summaryText)
}
