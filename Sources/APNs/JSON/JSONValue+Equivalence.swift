extension JSONValue {
    /// Whether two values mean the same: objects compared by key whatever their order (the last of
    /// duplicate keys counts), numbers by value (`1.0` is `1`), strings and keys by their exact UTF-8
    /// (not Unicode canonical equivalence), everything else exactly.
    public func isEquivalent(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.string(let a), .string(let b)): return a.utf8.elementsEqual(b.utf8)
        case (.number(let a), .number(let b)):
            if let x = a.intValue, let y = b.intValue { return x == y }
            return a.doubleValue == b.doubleValue
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isEquivalent(to: $1) }
        case (.object(let a), .object(let b)):
            let keys = Set(a.keys.map { Array($0.utf8) })
            guard keys == Set(b.keys.map { Array($0.utf8) }) else { return false }
            return keys.map { String(decoding: $0, as: UTF8.self) }.allSatisfy { key in
                guard let x = a[key], let y = b[key] else { return false }
                return x.isEquivalent(to: y)
            }
        default: return false
        }
    }
}
