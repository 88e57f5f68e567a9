import Audit
import Testing

/// The "exactly once on every path" analysis, through AUDIT-NSE-HANDLER: each case is a service
/// extension's didReceive body, and the lines where the audit must report.
@Suite(.timeLimit(.minutes(1)))
struct PathAnalysisTests {
    struct Case: Sendable, CustomStringConvertible {
        let description: String
        let body: String
        /// Lines of `body` (from 1) with a finding.
        let lines: [Int]
    }

    static let cases: [Case] = [
        Case(
            description: "a defer covers every exit",
            body: """
                defer { contentHandler(content) }
                guard ready else { return }
                if other { return }
                """, lines: []),
        Case(
            description: "an early return without the call",
            body: """
                guard ready else { return }
                contentHandler(content)
                """, lines: [1]),
        Case(
            description: "a call in a loop may run twice, or never",
            body: """
                for item in items {
                    contentHandler(item)
                }
                """, lines: [2, 4]),
        Case(
            description: "two closures of one call are alternatives",
            body: """
                fetch(url, success: { contentHandler($0) }, failure: { _ in contentHandler(content) })
                """, lines: []),
        Case(
            description: "forEach's closure runs any number of times",
            body: """
                items.forEach { contentHandler($0) }
                """, lines: [1, 2]),
        Case(
            description: "a throw goes to the catch",
            body: """
                do {
                    try decrypt()
                    contentHandler(content)
                } catch {
                    contentHandler(original)
                }
                """, lines: []),
        Case(
            description: "a catch that forgets",
            body: """
                do {
                    try decrypt()
                    contentHandler(content)
                } catch {
                    log(error)
                }
                """, lines: [7]),
        Case(
            description: "a local closure runs where it is called",
            body: """
                let finish = { (c: UNNotificationContent) in contentHandler(c) }
                if ready { finish(content) } else { finish(original) }
                """, lines: []),
        Case(
            description: "passing the handler on counts as calling it",
            body: """
                Decryptor.shared.decrypt(request, then: contentHandler)
                """, lines: []),
        Case(
            description: "switch cases are paths; break leaves the switch",
            body: """
                switch kind {
                case .image: contentHandler(content)
                case .none: break
                }
                """, lines: [5]),
        Case(
            description: "fatalError ends a path without a finding",
            body: """
                guard ready else { fatalError("unreachable") }
                contentHandler(content)
                """, lines: []),
    ]

    @Test(arguments: cases)
    func findings(_ testCase: Case) throws {
        let source = """
            class Service: UNNotificationServiceExtension {
                override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
            \(testCase.body.split(separator: "\n", omittingEmptySubsequences: false).map { "        " + $0 }.joined(separator: "\n"))
                }
                override func serviceExtensionTimeWillExpire() {}
            }
            """
        let file = try SyntaxModelTests.parse(source)
        let findings = Auditor.audit([file], infoPlists: [], entitlements: []).filter { $0.rule == .serviceHandler }
        // The body starts on line 3; the function's closing brace is the line after it.
        #expect(findings.map { $0.location.line - 2 }.sorted() == testCase.lines.sorted(), "\(findings)")
    }
}
