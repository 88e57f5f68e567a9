import Testing

@testable import APNs

/// The byte-level validator against the parser it stands in for: the same verdict (valid, of which
/// kind, or invalid) and the same error offset, on every parser test case and on seeded random
/// mutations of them.
@Suite(.timeLimit(.minutes(1)))
struct JSONValidatorTests {
    /// What `JSONValue(parsing:)` says of `bytes`, in the validator's terms.
    static func parserVerdict(_ bytes: [UInt8]) -> JSONValidation {
        do {
            let value = try JSONValue(parsing: bytes)
            switch value {
            case .null: return .valid(.null)
            case .bool: return .valid(.bool)
            case .number: return .valid(.number)
            case .string: return .valid(.string)
            case .array: return .valid(.array)
            case .object: return .valid(.object)
            }
        } catch {
            return .invalid(offset: error.offset)
        }
    }

    /// Every document the JSON and validator tests use, valid or not.
    static let seeds: [[UInt8]] = {
        var texts = JSONTests.compactions.map { Array($0.input.utf8) } + JSONTests.failures.map(\.bytes)
        texts += JSONTests.decodings.map { Array($0.input.utf8) } + JSONTests.corpus.map { Array($0.utf8) }
        texts += JSONTests.equivalences.flatMap { [Array($0.left.utf8), Array($0.right.utf8)] }
        texts += JSONTests.lexemes.map { Array($0.0.utf8) }
        texts += extraCases.map { Array($0.utf8) } + extraByteCases
        texts += [DevicePushValidatorTests.alertBody, DevicePushValidatorTests.backgroundBody]
        return texts
    }()

    /// Corners the parser tests do not reach: escapes next to raw UTF-8, surrogate pairs cut short,
    /// literals at the end of input, depth exactly at the limit.
    static let extraCases: [String] = [
        #""é\n€""#, #""\u00e9é""#, #""\ud83d\ude00x""#, #""\ud83d\""#, #""\ud83d\u""#, #""\ud83d\ude0""#,
        #""\ud83dx""#, #""\udfff""#, #""\uDBFF\uDFFF""#, "fals", "nul", "true ", " null", "[true,fals]", "-", "-0",
        "0.", "1e", "1E-", "[1,]", "{\"a\"}", "{\"a\":1,}", "{,}", "[,]", "\"", "\"\\u", "{\"a\":\"\\",
        String(repeating: "[", count: 512) + String(repeating: "]", count: 512),
        String(repeating: "{\"a\":", count: 512) + "1" + String(repeating: "}", count: 512),
        String(repeating: "[", count: 512) + "{}" + String(repeating: "]", count: 512),
        #"{"aps":{"alert":{"title":"Order shipped","body":"Your order A-1042 is on its way."},"sound":"default"}}"#,
    ]

    static let extraByteCases: [[UInt8]] = [
        [0x22, 0xC3, 0x5C, 0x6E, 0xA9, 0x22],  // a two-byte sequence cut by an escape
        [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // past U+10FFFF
        [0x22, 0xF0, 0x9F, 0x98, 0x80, 0x22],  // 😀
        [0x22, 0xE0, 0x9F, 0xBF, 0x22],  // overlong three-byte
        [0x22, 0xC1, 0xBF, 0x22], [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], [0x22, 0x80, 0x22],
        [0x22, 0xED, 0x9F, 0xBF, 0x22], [0x22, 0xEF, 0xBF, 0xBF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xC3],
        [0x22, 0xFF, 0x01, 0x22],  // invalid UTF-8, then a control character: the control character wins
        [0xEF, 0xBB, 0xBF, 0x7B, 0x7D],  // a byte-order mark is not whitespace
    ]

    @Test func agreesWithTheParserOnEveryTestCase() {
        for bytes in Self.seeds {
            #expect(
                JSONValidator.validate(bytes) == Self.parserVerdict(bytes),
                "\(String(decoding: bytes.prefix(80), as: UTF8.self))")
        }
    }

    @Test func answersAsTheParserOnTheirOwnTables() {
        for failure in JSONTests.failures {
            guard case .invalid = JSONValidator.validate(failure.bytes) else {
                Issue.record("\(failure.name): accepted")
                continue
            }
        }
        #expect(JSONValidator.validate(Array(#"{"a":1}"#.utf8)).isObject)
        #expect(!JSONValidator.validate(Array("[1]".utf8)).isObject)
        #expect(JSONValidator.validate(Array("".utf8)) == .invalid(offset: 0))
    }

    @Test func agreesOnRandomValues() {
        var random = JSONTests.RandomJSON(seed: 42)
        for _ in 0..<300 {
            let value = random.value()
            for bytes in [value.encoded(), Array(value.prettyPrinted().utf8)] {
                #expect(JSONValidator.validate(bytes) == Self.parserVerdict(bytes))
            }
        }
    }

    /// Seeded random mutations of every test case: bytes replaced, inserted, deleted, duplicated and
    /// cut, from an alphabet of JSON's structural characters and UTF-8's edge bytes.
    @Test(arguments: 0..<8)
    func agreesOnMutations(_ seed: Int) {
        var random = JSONTests.SplitMix64(seed: UInt64(seed) &* 0x9E37_79B9 &+ 1)
        var disagreements = 0
        for original in Self.seeds where original.count < 2000 {
            for _ in 0..<40 {
                let bytes = Self.mutate(original, using: &random)
                let expected = Self.parserVerdict(bytes)
                let actual = JSONValidator.validate(bytes)
                if actual != expected {
                    disagreements += 1
                    if disagreements <= 5 {
                        Issue.record("validator \(actual), parser \(expected) for \(bytes)")
                    }
                }
            }
        }
        #expect(disagreements == 0)
    }

    static let alphabet: [UInt8] =
        Array(#"{}[]",:\ u0123456789abcdefABCDEF.eE+-tfnrlsx/"#.utf8) + [
            0x00, 0x09, 0x0A, 0x0D, 0x1F, 0x7F, 0x80, 0xBF, 0xC2, 0xC3, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF,
        ]

    static func mutate(_ input: [UInt8], using random: inout JSONTests.SplitMix64) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
            let byte = alphabet.randomElement(using: &random) ?? 0
            switch Int.random(in: 0..<5, using: &random) {
            case 0 where !bytes.isEmpty: bytes[position] = byte
            case 1: bytes.insert(byte, at: position)
            case 2 where !bytes.isEmpty: bytes.remove(at: position)
            case 3 where !bytes.isEmpty:
                let end = min(bytes.count, position + Int.random(in: 1...8, using: &random))
                bytes.insert(contentsOf: bytes[position..<end], at: position)
            default: bytes = Array(bytes.prefix(position))
            }
        }
        return bytes
    }

    /// Strings are scanned eight bytes at a time: a byte that ends the plain run (quote, backslash,
    /// control character, non-ASCII) at every offset of a long string, and at its end, gets the
    /// parser's verdict.
    @Test(arguments: [
        [UInt8(ascii: "\\"), UInt8(ascii: "\"")], [0x1F], [0x00], [0xC3, 0xA9], [0xC3], [0x7F], [0xFF],
        [UInt8(ascii: "\""), UInt8(ascii: "\"")], [UInt8(ascii: "\\"), UInt8(ascii: "u"), 0x30, 0x30, 0x34, 0x31],
    ])
    func specialBytesAtEveryOffsetOfALongString(special: [UInt8]) {
        for offset in 0...40 {
            let plain = Array("abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ".utf8)
            let string = Array(plain[..<offset]) + special + Array(plain[offset...])
            let document = Array("{\"k\":\"".utf8) + string + Array("\"}".utf8)
            #expect(
                JSONValidator.validate(document) == Self.parserVerdict(document),
                "\(special) at \(offset)")
        }
    }
}
