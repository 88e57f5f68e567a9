import DeviceModel
import Testing

/// The banner rule (docs/DEVICE.md, U: 40 characters a line; title and subtitle one line, body four).
@Suite(.timeLimit(.minutes(1)))
struct RenderTests {
    @Test("render (U: banner rule): short text is shown as it is")
    func shortTextIsUnchanged() {
        let shown = render(NotificationContent(title: "Order", subtitle: "#42", body: "Shipped today."))
        #expect(
            shown == RenderedNotification(title: "Order", subtitle: "#42", body: "Shipped today.", truncated: false))
    }

    @Test("render (U: banner rule): the title is cut at 40 characters with an ellipsis")
    func longTitleIsCut() {
        let title = String(repeating: "x", count: 41)
        let shown = render(NotificationContent(title: title))
        #expect(shown.title == String(repeating: "x", count: 39) + "…")
        #expect(shown.title.count == RenderRule.lineWidth && shown.truncated)
        #expect(!render(NotificationContent(title: String(repeating: "x", count: 40))).truncated)
    }

    @Test("render (U: banner rule): the body wraps at spaces and is cut after four lines")
    func bodyWrapsAndIsCut() {
        let word = String(repeating: "w", count: 9)  // four words and three spaces fill a line exactly
        let line = [word, word, word, word].joined(separator: " ")
        #expect(line.count == 39)
        let body = Array(repeating: word, count: 20).joined(separator: " ")
        let shown = render(NotificationContent(body: body))
        let lines = shown.body.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4)
        #expect(lines.prefix(3).allSatisfy { $0 == line })
        #expect(lines[3] == line + "…")
        #expect(shown.truncated)
    }

    @Test("render (U: banner rule): newlines start lines; characters are what the user sees")
    func newlinesAndGraphemes() {
        let shown = render(NotificationContent(body: "one\ntwo\nthree\nfour\nfive"))
        #expect(shown.body == "one\ntwo\nthree\nfour…")
        let flags = String(repeating: "🇫🇷", count: 40)
        #expect(!render(NotificationContent(title: flags)).truncated, "40 flags are 40 characters")
    }
}
