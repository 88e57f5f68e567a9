// The few facts the audit needs from an XML property list (Info.plist, .entitlements): the top-level
// dictionary's keys with their string or array-of-strings values and the line each key is on. Binary
// property lists are not read; the audit says so.

/// A top-level value of a property list, as far as the audit reads it.
public enum PropertyListValue: Sendable, Equatable {
    case string(String)
    case strings([String])
    /// A number, boolean, date, data or dictionary: present, not read.
    case other
}

/// The top-level keys of an XML property list.
public struct PropertyList: Sendable {
    public let path: String
    public let entries: [String: (value: PropertyListValue, line: Int)]

    /// Reads the XML plist at `path`; nil with a reason when it cannot.
    public static func read(_ path: String) -> Result<PropertyList, ParseFailure> {
        guard let bytes = readFile(path) else {
            return .failure(ParseFailure(path: path, message: "cannot read the file"))
        }
        if bytes.starts(with: Array("bplist".utf8)) {
            return .failure(
                ParseFailure(
                    path: path, message: "a binary property list; convert it with 'plutil -convert xml1' to audit it"))
        }
        return .success(PropertyList(path: path, text: String(decoding: bytes, as: UTF8.self)))
    }

    init(path: String, text: String) {
        self.path = path
        var entries: [String: (value: PropertyListValue, line: Int)] = [:]
        let elements = PropertyList.elements(text)
        var index = 0
        var depth = 0  // of dict/array; top-level keys are at depth 1
        while index < elements.count {
            let element = elements[index]
            index += 1
            switch element.tag {
            case "dict", "array": depth += 1
            case "/dict", "/array": depth -= 1
            case "key" where depth == 1:
                guard index < elements.count else { break }
                let value = elements[index]
                if value.tag == "string" {
                    entries[element.text] = (.string(value.text), element.line)
                    index += 1
                } else if value.tag == "array" {
                    var strings: [String] = []
                    var inner = index + 1
                    while inner < elements.count, elements[inner].tag != "/array" {
                        if elements[inner].tag == "string" { strings.append(elements[inner].text) }
                        inner += 1
                    }
                    entries[element.text] = (.strings(strings), element.line)
                } else {
                    entries[element.text] = (.other, element.line)
                }
            default: break
            }
        }
        self.entries = entries
    }

    /// Tags in order, with the text of `key` and `string` elements and the line each starts on.
    private static func elements(_ text: String) -> [(tag: String, text: String, line: Int)] {
        var result: [(tag: String, text: String, line: Int)] = []
        let bytes = Array(text.utf8)
        var index = 0
        var line = 1
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") { line += 1 }
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            var end = index + 1
            while end < bytes.count, bytes[end] != UInt8(ascii: ">") { end += 1 }
            let tag = String(decoding: bytes[(index + 1)..<min(end, bytes.count)], as: UTF8.self)
            index = end + 1
            let name =
                tag.hasPrefix("/")
                ? "/" + tag.dropFirst().prefix { $0 != " " } : String(tag.prefix { $0 != " " && $0 != "/" })
            if tag.hasPrefix("?") || tag.hasPrefix("!") { continue }
            if tag.hasSuffix("/") {
                result.append((name, "", line))
                continue
            }
            if name == "key" || name == "string" {
                var close = index
                while close < bytes.count, bytes[close] != UInt8(ascii: "<") { close += 1 }
                let content = String(decoding: bytes[index..<close], as: UTF8.self)
                result.append((name, unescape(content), line))
                line += content.utf8.filter { $0 == UInt8(ascii: "\n") }.count
                // Past the closing tag: the element is read whole.
                index = close
                while index < bytes.count, bytes[index] != UInt8(ascii: ">") { index += 1 }
                index += 1
                continue
            }
            result.append((name, "", line))
        }
        return result
    }

    private static func unescape(_ text: String) -> String {
        text.replacingOccurrences("&lt;", "<").replacingOccurrences("&gt;", ">").replacingOccurrences("&amp;", "&")
    }
}

extension String {
    fileprivate func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        guard contains(target) else { return self }
        return components(separatedBy: target).joined(separator: replacement)
    }

    fileprivate func components(separatedBy separator: String) -> [String] {
        var parts: [String] = []
        var rest = Substring(self)
        while let range = rest.firstRange(of: separator) {
            parts.append(String(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        parts.append(String(rest))
        return parts
    }
}
