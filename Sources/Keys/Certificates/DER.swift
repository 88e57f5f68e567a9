/// Just enough DER (X.690) to read and write the APNs topic list: tag-length-value walking and encoding.
///
/// Definite lengths only (DER has no others), tags of one byte, lengths up to 4 bytes. Every read is
/// bounds-checked; a malformed input ends the walk instead of trapping.
enum DER {
    static let sequence: UInt8 = 0x30
    static let utf8String: UInt8 = 0x0C
    static let printableString: UInt8 = 0x13
    static let ia5String: UInt8 = 0x16
    static let null: UInt8 = 0x05

    /// One tag-length-value element.
    struct Element {
        let tag: UInt8
        let value: ArraySlice<UInt8>
    }

    /// The elements laid end to end in `bytes`; nil if any is malformed or truncated.
    static func elements(_ bytes: ArraySlice<UInt8>) -> [Element]? {
        var found: [Element] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            guard let (element, next) = element(in: bytes, at: index) else { return nil }
            found.append(element)
            index = next
        }
        return found
    }

    /// The element starting at `index`, and the index after it.
    static func element(in bytes: ArraySlice<UInt8>, at index: Int) -> (Element, Int)? {
        guard index + 2 <= bytes.endIndex else { return nil }
        let tag = bytes[index]
        guard tag & 0x1F != 0x1F else { return nil }  // multi-byte tags are not used here
        var cursor = index + 1
        var length = Int(bytes[cursor])
        cursor += 1
        if length & 0x80 != 0 {
            let count = length & 0x7F
            guard (1...4).contains(count), cursor + count <= bytes.endIndex else { return nil }
            length = bytes[cursor..<cursor + count].reduce(0) { $0 << 8 | Int($1) }
            cursor += count
        }
        guard length <= bytes.endIndex - cursor else { return nil }
        return (Element(tag: tag, value: bytes[cursor..<cursor + length]), cursor + length)
    }

    /// `tag`, the DER length of `value`, then `value`.
    static func encode(tag: UInt8, _ value: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [tag]
        if value.count < 0x80 {
            out.append(UInt8(value.count))
        } else {
            var length = value.count
            var digits: [UInt8] = []
            while length > 0 {
                digits.insert(UInt8(length & 0xFF), at: 0)
                length >>= 8
            }
            out.append(0x80 | UInt8(digits.count))
            out += digits
        }
        return out + value
    }

    /// Whether `bytes` is exactly one well-formed element.
    static func isSingleElement(_ bytes: [UInt8]) -> Bool {
        guard let (_, next) = element(in: bytes[...], at: 0) else { return false }
        return next == bytes.count
    }
}
