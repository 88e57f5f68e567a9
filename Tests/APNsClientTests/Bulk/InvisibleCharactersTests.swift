import Testing

@testable import APNsClient

/// Messages that quote outside input show what a terminal would hide.
@Suite(.timeLimit(.minutes(1)))
struct InvisibleCharactersTests {
    @Test(arguments: [
        ("abc", "abc"),
        ("ab\r", "ab\\r"),
        ("a\tb\n", "a\\tb\\n"),
        ("ab\u{200B}cd", "ab\\u{200B}cd"),  // zero-width space
        ("\u{FEFF}ab", "\\u{FEFF}ab"),  // byte-order mark
        ("ab\u{202E}cd", "ab\\u{202E}cd"),  // right-to-left override
        ("ab\u{0}", "ab\\u{0}"),
        ("café ✓", "café ✓"),  // visible non-ASCII stays
    ])
    func escapesWhatATerminalHides(_ text: String, _ shown: String) {
        #expect(text.escapingInvisibleCharacters() == shown)
    }

    /// A bulk line's error quotes its token with the invisible character shown.
    @Test func aLineErrorShowsInvisibleCharacters() {
        let token = String(repeating: "ab", count: 32)
        let line = #"{"token":"\#(token)\u200b","payload":{"aps":{"alert":"x"}}}"#
        let error = #expect(throws: NDJSONRequestDecoder.LineError.self) {
            try NDJSONRequestDecoder(topic: "com.example.app").decode(Array(line.utf8), number: 2)
        }
        #expect(error?.message.contains("\\u{200B}") == true, "\(String(describing: error))")
        #expect(error?.message.contains("\u{200B}") == false)
    }
}
