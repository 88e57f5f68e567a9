import APNs
import Testing

/// Herald's own JSON: strict parsing with positions, compact encoding that keeps member order,
/// duplicates and number lexemes, and comparison by meaning.
@Suite(.timeLimit(.minutes(1)))
struct JSONTests {
    // MARK: - Valid documents encode compactly

    /// A document and its exact compact encoding.
    struct Compaction: Sendable, CustomTestStringConvertible {
        let name: String
        let input: String
        let output: String
        var testDescription: String { name }

        init(_ name: String, _ input: String, _ output: String) {
            self.name = name
            self.input = input
            self.output = output
        }
    }

    static let compactions: [Compaction] = [
        Compaction(
            "whitespace of every kind is removed", " \t\r\n{ \"b\" : 1 ,\n \"a\" : [ true , false , null ] } \n",
            #"{"b":1,"a":[true,false,null]}"#),
        Compaction("member order is kept", #"{"z":1, "a":2, "m":3}"#, #"{"z":1,"a":2,"m":3}"#),
        Compaction("duplicate members are kept", #"{"a":1, "a":2}"#, #"{"a":1,"a":2}"#),
        Compaction(
            "number lexemes are kept",
            #"[1.0, 1e3, -0, 12345678901234567890, 1E+3, 0.5e-10, -1.25, 0, 1e-0, 100, -0.0e+00]"#,
            #"[1.0,1e3,-0,12345678901234567890,1E+3,0.5e-10,-1.25,0,1e-0,100,-0.0e+00]"#),
        Compaction("non-ASCII stays raw UTF-8", #"{ "grüße" : "日本語 ✓ 😀" }"#, #"{"grüße":"日本語 ✓ 😀"}"#),
        Compaction("escaped non-ASCII is written raw", #""\u00e9\u20AC""#, "\"é€\""),
        Compaction(
            "control characters are escaped", #""\u0001\u001f\n\t\b\f\r\u0000""#, #""\u0001\u001f\n\t\b\f\r\u0000""#),
        Compaction("a \\u escape of a short-escape character uses the short form", #""\u000a\u0009""#, #""\n\t""#),
        Compaction("an escaped solidus decodes to '/'", #""a\/b/c""#, #""a/b/c""#),
        Compaction("surrogate pairs decode", #""\ud834\udd1e \uD83D\uDE00""#, "\"𝄞 😀\""),
        Compaction("quote and backslash stay escaped", #""say \"hi\" \\ done""#, #""say \"hi\" \\ done""#),
        Compaction("DEL and U+2028 need no escape", #""\u007f\u2028""#, "\"\u{7F}\u{2028}\""),
        Compaction("empty containers and strings", #"[ { } , [ ] , "" , { "" : [ [ ] ] } ]"#, #"[{},[],"",{"":[[]]}]"#),
        Compaction("a top-level string", "  \"x\"  ", "\"x\""),
        Compaction("a top-level number", " -0.0e+00 ", "-0.0e+00"),
        Compaction("top-level literals", "\ntrue\n", "true"),
    ]

    @Test(arguments: compactions)
    func encodesCompactly(_ example: Compaction) throws {
        let value = try JSONValue(parsing: example.input)
        #expect(value.encoded() == Array(example.output.utf8))
        #expect(value.encodedString == example.output)
    }

    @Test(arguments: compactions)
    func bytesAndStringParseAlike(_ example: Compaction) throws {
        #expect(try JSONValue(parsing: Array(example.input.utf8)) == JSONValue(parsing: example.input))
    }

    /// A document and the value it means.
    struct Decoding: Sendable, CustomTestStringConvertible {
        let input: String
        let value: JSONValue
        var testDescription: String { input }
    }

    static let decodings: [Decoding] = [
        Decoding(input: #""\/""#, value: .string("/")),
        Decoding(input: #""\ud834\udd1e""#, value: .string("\u{1D11E}")),
        Decoding(input: #""\uDBFF\uDFFF""#, value: .string("\u{10FFFF}")),
        Decoding(input: #""\u00E9""#, value: .string("\u{E9}")),
        Decoding(input: #""\b\f\n\r\t\"\\""#, value: .string("\u{8}\u{C}\n\r\t\"\\")),
        Decoding(input: #""\u0000""#, value: .string("\u{0}")),
        Decoding(input: #""e\u0301""#, value: .string("e\u{301}")),
        Decoding(input: #"{"a":[1,"b",null,true,false]}"#, value: ["a": [1, "b", nil, true, false]]),
        Decoding(input: "[]", value: .array([])),
        Decoding(input: "{}", value: .object(JSONObject())),
    ]

    @Test(arguments: decodings)
    func decodesTo(_ example: Decoding) throws {
        let value = try JSONValue(parsing: example.input)
        #expect(value == example.value)
        // Exactly the same scalars, not merely canonically equivalent text.
        if case .string(let parsed) = value, case .string(let expected) = example.value {
            #expect(Array(parsed.unicodeScalars) == Array(expected.unicodeScalars))
        }
    }

    @Test func numbersKeepTheirText() throws {
        let value = try JSONValue(parsing: "[1.0, 1e3, -0, 12345678901234567890]")
        let texts = value.arrayValue?.compactMap(\.numberValue?.text)
        #expect(texts == ["1.0", "1e3", "-0", "12345678901234567890"])
    }

    // MARK: - Invalid documents

    /// Bytes that are not JSON, and what the error must say and where.
    struct Failure: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: [UInt8]
        let message: String
        let line: Int
        let column: Int
        var testDescription: String { name }

        init(_ name: String, _ text: String, _ message: String, line: Int = 1, column: Int) {
            self.init(name, bytes: Array(text.utf8), message, line: line, column: column)
        }

        init(_ name: String, bytes: [UInt8], _ message: String, line: Int = 1, column: Int) {
            self.name = name
            self.bytes = bytes
            self.message = message
            self.line = line
            self.column = column
        }
    }

    static let failures: [Failure] = [
        Failure("trailing comma in an object", #"{"a":1,}"#, "expected a string key", column: 8),
        Failure("trailing comma in an array", "[1,2,]", "unexpected ']'", column: 6),
        Failure("leading zero", "[01]", "number", column: 3),
        Failure("negative leading zero", "-012", "number", column: 3),
        Failure("single-quoted string", "['a']", "unexpected '''", column: 2),
        Failure("single-quoted key", "{'a':1}", "expected a string key", column: 2),
        Failure("unterminated string", #"{"a":"abc"#, "unterminated string", column: 10),
        Failure("unterminated string after an escape", #""ab\n"#, "unterminated string", column: 6),
        Failure("unterminated escape", #""\"#, "unterminated escape", column: 3),
        Failure("raw control character", "\"a\u{1}b\"", "control character", column: 3),
        Failure("raw newline in a string", "[\"a\nb\"]", "control character", column: 4),
        Failure("raw tab after an escape", "\"\\n\t\"", "control character", column: 4),
        Failure("invalid UTF-8 byte", bytes: [0x5B, 0x22, 0x61, 0xFF, 0x22, 0x5D], "UTF-8", column: 3),
        Failure("overlong UTF-8", bytes: [0x22, 0xC0, 0xAF, 0x22], "UTF-8", column: 2),
        Failure("truncated UTF-8 sequence", bytes: [0x22, 0xE2, 0x82, 0x22], "UTF-8", column: 2),
        Failure("UTF-8 encoded surrogate", bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], "UTF-8", column: 2),
        Failure("invalid UTF-8 after an escape", bytes: [0x22, 0x5C, 0x6E, 0xFE, 0x22], "UTF-8", column: 2),
        Failure("invalid byte outside a string", bytes: [0x5B, 0xFF, 0x5D], "byte 0xFF", column: 2),
        Failure("lone high surrogate", #""\ud800""#, "lone high surrogate", column: 8),
        Failure("lone low surrogate", #""\udc00""#, "lone low surrogate", column: 8),
        Failure("high surrogate before a non-surrogate", #""\ud800\u0041""#, "high surrogate", column: 14),
        Failure("two values", "1 2", "after the value", column: 3),
        Failure("two objects", "{}{}", "after the value", column: 3),
        Failure("empty input", "", "empty input", column: 1),
        Failure("whitespace only", " \n  ", "no value", line: 2, column: 3),
        Failure("NaN", "NaN", "unexpected 'N'", column: 1),
        Failure("nan", "nan", "unexpected 'n'", column: 1),
        Failure("Infinity", "[Infinity]", "unexpected 'I'", column: 2),
        Failure("-Infinity", "-Infinity", "number", column: 2),
        Failure("line comment", "// note\n{}", "unexpected '/'", column: 1),
        Failure("block comment", #"{"a":1 /* c */}"#, "expected ',' or '}'", column: 8),
        Failure("hash comment", "[1,#x]", "unexpected '#'", column: 4),
        Failure("missing colon", #"{"a" 1}"#, "expected ':'", column: 6),
        Failure("non-string key", "{1:2}", "expected a string key", column: 2),
        Failure("invalid escape", #""\x""#, "invalid escape", column: 3),
        Failure("short \\u escape", #""\u12""#, "incomplete", column: 4),
        Failure("non-hex \\u escape", #""\u12G4""#, "invalid hex digit", column: 6),
        Failure("unterminated array", "[1,2", "expected ',' or ']'", column: 5),
        Failure("unterminated object", #"{"a":1"#, "expected ',' or '}'", column: 7),
        Failure("missing member value", #"{"a":}"#, "unexpected '}'", column: 6),
        Failure("truncated literal", "tru", "unexpected 't'", column: 1),
        Failure("misspelled literal", "[nul]", "unexpected 'n'", column: 2),
        Failure("literal with trailing garbage", "truex", "after the value", column: 5),
        Failure("fraction without digits", "1.", "number", column: 3),
        Failure("exponent without digits", "1e+", "number", column: 4),
        Failure("plus sign", "+1", "unexpected '+'", column: 1),
        Failure("leading dot", ".5", "unexpected '.'", column: 1),
        Failure("hexadecimal number", "0x10", "after the value", column: 2),
        Failure("error on a later line", "{\n  \"a\": 1,\n  \"b\": tru\n}", "unexpected 't'", line: 3, column: 8),
        Failure("columns count characters, not bytes", #"["é€😀", x]"#, "unexpected 'x'", column: 9),
        Failure("column restarts after a newline", "[\n\"日本\",\n?]", "unexpected '?'", line: 3, column: 1),
        Failure(
            "nesting deeper than 512", String(repeating: "[", count: 513) + String(repeating: "]", count: 513),
            "nesting deeper than 512", column: 513),
        Failure("100,000 unclosed brackets", String(repeating: "[", count: 100_000), "nesting", column: 513),
        Failure("deeply nested objects", String(repeating: #"{"a":"#, count: 600), "nesting", column: 2561),
    ]

    @Test(arguments: failures)
    func rejects(_ example: Failure) {
        let error = #expect(throws: JSONError.self) { try JSONValue(parsing: example.bytes) }
        guard let error else { return }
        #expect(error.message.contains(example.message), "message: \(error.message)")
        #expect(error.line == example.line, "\(error)")
        #expect(error.column == example.column, "\(error)")
        #expect(error.offset >= 0 && error.offset <= example.bytes.count)
        #expect("\(error)".contains("line \(example.line), column \(example.column)"))
    }

    @Test func errorOffsetIsTheByteOffset() {
        let error = #expect(throws: JSONError.self) { try JSONValue(parsing: #"["é", x]"#) }
        // '[', '"', two bytes of é, '"', ',', ' ' come before the x.
        #expect(error?.offset == 7)
        #expect(error?.column == 7)
    }

    @Test func nestingOf512LevelsIsAllowed() throws {
        let text = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        let value = try JSONValue(parsing: text)
        #expect(value.encodedString == text)
    }

    @Test func depthIsReleasedWhenContainersClose() throws {
        // Three siblings each 511 deep inside one array: 512 at most, however many there are.
        let deep = String(repeating: "[", count: 511) + String(repeating: "]", count: 511)
        let text = "[" + Array(repeating: deep, count: 3).joined(separator: ",") + "]"
        #expect(try JSONValue(parsing: text).encodedString == text)
        let empties = "[" + Array(repeating: #"{},[],{"a":{}}"#, count: 1000).joined(separator: ",") + "]"
        #expect(try JSONValue(parsing: empties).arrayValue?.count == 3000)
    }

    // MARK: - Round trips

    static let corpus: [String] = [
        #"{"aps":{"alert":{"title":"Order shipped","body":"Your order A-1042 is on its way."},"badge":1},"#
            + #""id":"A-1042"}"#,
        #"{"aps":{"alert":"Grüße aus Köln 🎉","sound":"default"},"emoji":"👩‍👩‍👧‍👦","rtl":"مرحبا","cjk":"你好，世界"}"#,
        #"{"s":"\u0000\u001f\"\\\/\b\f\n\r\t","pair":"\ud83d\ude00","e":"e\u0301 vs \u00e9"}"#,
        #"[1.0,1e3,-0,12345678901234567890,1E+3,0.5e-10,-1.25,0,-0.0e+00,1e-7]"#,
        #"{"a":1,"a":2,"b":{"a":3,"a":[true,false,null]}}"#,
        "  [ {\n\"k\" :\t\"v\" } , \"\u{2028}\u{2029}\u{FEFF}\" , \"\u{10FFFF}\" ]  ",
        #"{"":"","\u0000":{"":[]}}"#,
    ]

    @Test(arguments: corpus)
    func roundTripIsStable(_ text: String) throws {
        let first = try JSONValue(parsing: text)
        let firstBytes = first.encoded()
        let second = try JSONValue(parsing: firstBytes)
        let secondBytes = second.encoded()
        #expect(first == second)
        #expect(firstBytes == secondBytes)
        #expect(second.isEquivalent(to: first))
        // The pretty rendering parses back to the same value.
        #expect(try JSONValue(parsing: first.prettyPrinted()) == first)
    }

    // MARK: - Objects

    @Test func duplicateKeysAreKeptAndReported() throws {
        let value = try JSONValue(parsing: #"{"a":1,"b":2,"a":3,"b":4,"a":5,"c":6}"#)
        let object = try #require(value.objectValue)
        #expect(object.count == 6)
        #expect(object.keys == ["a", "b", "a", "b", "a", "c"])
        #expect(object.duplicateKeys == ["a", "b"])
        #expect(object["a"] == 5)
        #expect(object["b"] == 4)
        #expect(value["a"] == 5)
        #expect(object["missing"] == nil)
        #expect(value.encodedString == #"{"a":1,"b":2,"a":3,"b":4,"a":5,"c":6}"#)
    }

    @Test func objectWithoutDuplicatesReportsNone() throws {
        let object = try #require(try JSONValue(parsing: #"{"a":1,"b":{"a":2}}"#).objectValue)
        #expect(object.duplicateKeys.isEmpty)
    }

    @Test func subscriptSetReplacesInPlaceAndRemoves() throws {
        var object = try #require(try JSONValue(parsing: #"{"a":1,"b":2,"a":3,"c":4}"#).objectValue)
        object["a"] = 9
        #expect(JSONValue.object(object).encodedString == #"{"a":9,"b":2,"c":4}"#)
        #expect(object.duplicateKeys.isEmpty)
        object["b"] = nil
        #expect(JSONValue.object(object).encodedString == #"{"a":9,"c":4}"#)
        object["d"] = true
        #expect(JSONValue.object(object).encodedString == #"{"a":9,"c":4,"d":true}"#)
        object["missing"] = nil
        #expect(object.keys == ["a", "c", "d"])
        #expect(object.contains(key: "c"))
        #expect(!object.contains(key: "b"))
        object.append(key: "a", value: "again")
        #expect(object.keys == ["a", "c", "d", "a"])
        #expect(object["a"] == "again")
    }

    // MARK: - Equivalence

    struct Equivalence: Sendable, CustomTestStringConvertible {
        let left: String
        let right: String
        let equivalent: Bool
        var testDescription: String { "\(left) \(equivalent ? "≡" : "≢") \(right)" }

        init(_ left: String, _ right: String, _ equivalent: Bool) {
            self.left = left
            self.right = right
            self.equivalent = equivalent
        }
    }

    static let equivalences: [Equivalence] = [
        Equivalence(#"{"a":1,"b":2}"#, #"{"b":2,"a":1}"#, true),
        Equivalence("1.0", "1", true),
        Equivalence("1e0", "1", true),
        Equivalence("100", "1e2", true),
        Equivalence("-0", "0", true),
        Equivalence("0.5", "5e-1", true),
        Equivalence(#"{"a":[1.50,{"x":null}]}"#, #"{"a":[1.5,{"x":null}]}"#, true),
        Equivalence(#"{"a":1,"a":2}"#, #"{"a":2}"#, true),
        Equivalence(#""1""#, "1", false),
        Equivalence("1", "2", false),
        Equivalence("1.5", "1", false),
        Equivalence("[1,2]", "[2,1]", false),
        Equivalence("[1]", "[1,1]", false),
        Equivalence(#"{"a":1}"#, #"{"a":1,"b":2}"#, false),
        Equivalence(#"{"a":1}"#, #"{"b":1}"#, false),
        Equivalence("null", "false", false),
        Equivalence("0", "false", false),
        Equivalence(#""""#, "null", false),
        Equivalence("{}", "[]", false),
        Equivalence("true", "true", true),
        Equivalence(#""a""#, #""A""#, false),
    ]

    @Test(arguments: equivalences)
    func equivalence(_ example: Equivalence) throws {
        let left = try JSONValue(parsing: example.left)
        let right = try JSONValue(parsing: example.right)
        #expect(left.isEquivalent(to: right) == example.equivalent)
        #expect(right.isEquivalent(to: left) == example.equivalent)
    }

    /// JSON strings are sequences of code points (RFC 8259 §8.3): "é" precomposed and "e" plus a
    /// combining accent are different strings, of different sizes on the wire.
    @Test func stringsCompareByCodePoints() throws {
        let composed = try JSONValue(parsing: #""\u00e9""#)
        let decomposed = try JSONValue(parsing: #""e\u0301""#)
        #expect(composed.encoded().count != decomposed.encoded().count)
        #expect(!composed.isEquivalent(to: decomposed))
        let object = try #require(try JSONValue(parsing: #"{"\u00e9":1,"e\u0301":2}"#).objectValue)
        #expect(object.duplicateKeys.isEmpty)
    }

    // MARK: - Literals and numbers

    @Test func literalsBuildValues() {
        let value: JSONValue = ["b": [true, nil, "x", 1.5, -2], "a": ["nested": 0]]
        #expect(value.encodedString == #"{"b":[true,null,"x",1.5,-2],"a":{"nested":0}}"#)
        #expect(value["b"]?.arrayValue?.count == 5)
        #expect(value["a"]?["nested"]?.intValue == 0)
        #expect(value["b"]?.arrayValue?[2].stringValue == "x")
        #expect(value["b"]?.arrayValue?[0].boolValue == true)
        #expect(value["b"]?.arrayValue?[1].isNull == true)
        #expect(value["b"]?.arrayValue?[3].doubleValue == 1.5)
        #expect(value["b"]?.arrayValue?[3].intValue == nil)
        #expect(value["missing"] == nil)
        #expect(JSONValue.string("x")["key"] == nil)
    }

    static let doubleTexts: [(Double, String)] = [
        (1.0, "1"), (-0.0, "0"), (2.5, "2.5"), (0.1, "0.1"), (-3.0, "-3"), (1e20, "1e+20"),
        (123_456_789_012_345.0, "123456789012345"),
    ]

    @Test(arguments: doubleTexts)
    func floatLiterals(_ value: Double, _ text: String) throws {
        #expect(JSONValue(floatLiteral: value).encodedString == text)
        #expect(JSONNumber(value)?.text == text)
    }

    static let doubles: [Double] = [
        0.1, 1e-7, .leastNonzeroMagnitude, .greatestFiniteMagnitude, -2.5e-300, 1e15, 123.456, 1.0 / 3.0,
    ]

    @Test(arguments: doubles)
    func doublesBecomeValidLexemesOfTheSameValue(_ value: Double) throws {
        let number = try #require(JSONNumber(value))
        #expect(JSONNumber(text: number.text) != nil, "\(number.text)")
        #expect(number.doubleValue == value)
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteDoublesAreNotNumbers(_ value: Double) {
        #expect(JSONNumber(value) == nil)
    }

    static let lexemes: [(String, Bool)] = [
        ("0", true), ("-0", true), ("1.0", true), ("1e+5", true), ("1E-05", true), ("12345678901234567890", true),
        ("01", false), ("1.", false), (".1", false), ("", false), (" 1", false), ("1 ", false), ("+1", false),
        ("0x10", false), ("NaN", false), ("1e", false), ("--1", false), ("1.0.0", false), ("١", false),
    ]

    @Test(arguments: lexemes)
    func numberLexemes(_ text: String, _ valid: Bool) {
        #expect((JSONNumber(text: text) != nil) == valid)
    }

    static let numberValueCases: [(String, Int?, Double)] = [
        ("42", 42, 42), ("-0", 0, 0), ("1.0", nil, 1), ("1e3", nil, 1000),
        ("12345678901234567890", nil, 12_345_678_901_234_567_168), ("-7", -7, -7),
    ]

    @Test(arguments: numberValueCases)
    func numberValues(_ text: String, _ int: Int?, _ double: Double) throws {
        let number = try #require(JSONNumber(text: text))
        #expect(number.intValue == int)
        #expect(number.doubleValue == double)
        #expect(number.isInteger == !text.contains(where: { ".eE".contains($0) }))
    }

    // MARK: - Property: encode then parse gives the value back

    @Test(arguments: [1, 2, 3, 0x5EED_F00D] as [UInt64])
    func randomValuesSurviveEncodeAndParse(_ seed: UInt64) throws {
        var generator = RandomJSON(seed: seed)
        for _ in 0..<100 {
            let value = generator.value()
            let bytes = value.encoded()
            // Compact: no raw control characters and no whitespace outside strings can remain.
            #expect(!bytes.contains(where: { $0 < 0x20 }))
            let parsed = try JSONValue(parsing: bytes)
            #expect(parsed == value, "\(value.encodedString)")
            #expect(parsed.encoded() == bytes)
            #expect(parsed.isEquivalent(to: value))
            #expect(try JSONValue(parsing: value.prettyPrinted()) == value)
        }
    }

    @Test func randomGeneratorIsDeterministic() {
        var first = RandomJSON(seed: 7)
        var second = RandomJSON(seed: 7)
        for _ in 0..<20 {
            #expect(first.value().encoded() == second.value().encoded())
        }
    }
}

// MARK: - Deterministic random values

extension JSONTests {
    /// A seeded generator, so failures reproduce.
    typealias SplitMix64 = APNs.SplitMix64

    /// Random JSON values: every kind, numbers in every lexeme shape, strings with control
    /// characters, quotes, astral and combining characters, objects with duplicate keys.
    struct RandomJSON {
        private var random: SplitMix64

        init(seed: UInt64) {
            random = SplitMix64(seed: seed)
        }

        private static let palette: [Unicode.Scalar] = [
            "a", "Z", "0", " ", "\"", "\\", "/", "\u{0}", "\u{1}", "\u{8}", "\t", "\n", "\u{C}", "\r", "\u{1F}",
            "\u{7F}", "é", "\u{301}", "€", "日", "\u{2028}", "\u{FEFF}", "\u{FFFF}", "😀", "𝄞", "\u{10FFFF}",
        ]

        private mutating func int(_ range: ClosedRange<Int>) -> Int {
            Int.random(in: range, using: &random)
        }

        mutating func value(depth: Int = 0) -> JSONValue {
            switch int(0...(depth >= 4 ? 3 : 5)) {
            case 0: return .null
            case 1: return .bool(int(0...1) == 1)
            case 2: return .number(number())
            case 3: return .string(string())
            case 4:
                var elements: [JSONValue] = []
                for _ in 0..<int(0...5) { elements.append(value(depth: depth + 1)) }
                return .array(elements)
            default:
                var object = JSONObject()
                for _ in 0..<int(0...5) {
                    // A small key alphabet makes duplicate keys common.
                    let key = int(0...2) == 0 ? string() : ["a", "b", "aps", ""][int(0...3)]
                    object.append(key: key, value: value(depth: depth + 1))
                }
                return .object(object)
            }
        }

        private mutating func digits(_ count: ClosedRange<Int>) -> String {
            var text = ""
            for _ in 0..<int(count) { text += String(int(0...9)) }
            return text
        }

        mutating func number() -> JSONNumber {
            var text = int(0...1) == 0 ? "" : "-"
            text += int(0...4) == 0 ? "0" : String(int(1...9)) + digits(0...20)
            if int(0...2) == 0 { text += "." + digits(1...6) }
            if int(0...3) == 0 { text += ["e", "E"][int(0...1)] + ["", "+", "-"][int(0...2)] + digits(1...3) }
            return JSONNumber(text: text) ?? JSONNumber(-1)
        }

        mutating func string() -> String {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<int(0...12) {
                if int(0...1) == 0 {
                    scalars.append(Self.palette[int(0...Self.palette.count - 1)])
                } else {
                    scalars.append(randomScalar())
                }
            }
            return String(scalars)
        }

        private mutating func randomScalar() -> Unicode.Scalar {
            while true {
                let upper = [0x7F, 0x7FF, 0xFFFF, 0x10FFFF][int(0...3)]
                if let scalar = Unicode.Scalar(UInt32(int(0...upper))) { return scalar }
            }
        }
    }
}
