import Testing

@testable import Audit

@Suite(.timeLimit(.minutes(1)))
struct SourceTextTests {
    @Test func offsetsMapToLineAndColumn() {
        let text = SourceText(Array("ab\ncd\n".utf8))
        #expect(text.location(ofOffset: 0) == SourceLocation(line: 1, column: 1))
        #expect(text.location(ofOffset: 4) == SourceLocation(line: 2, column: 2))
    }

    @Test func tokensSkipCommentsAndStringTextButNotInterpolations() {
        let source = """
            let a = "token \\(deviceToken) description" // description
            /* registerForRemoteNotifications */ b.c
            """
        let names = SourceText(Array(source.utf8)).tokens.map(\.text)
        #expect(names == ["let", "a", "\"", "deviceToken", "b", ".", "c"])
    }
}
