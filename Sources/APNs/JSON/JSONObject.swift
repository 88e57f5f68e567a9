/// A JSON object that keeps its members in the order they were written, duplicates included.
///
/// Keys match by their exact UTF-8 bytes, not by Unicode canonical equivalence: "é" and "e\u{301}"
/// are different keys to JSON and to APNs. Lookup by key returns the last member with that key, as JavaScript and most JSON parsers do;
/// `duplicateKeys` tells which keys were written more than once so a linter can say so.
public struct JSONObject: Sendable, Hashable, Sequence {
    public struct Member: Sendable, Hashable {
        public var key: String
        public var value: JSONValue

        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    public private(set) var members: [Member]

    public init(_ members: [Member] = []) {
        self.members = members
    }

    public var isEmpty: Bool { members.isEmpty }
    public var count: Int { members.count }
    public var keys: [String] { members.map(\.key) }

    public func makeIterator() -> IndexingIterator<[Member]> {
        members.makeIterator()
    }

    /// The value of the last member named `key`. Setting replaces every member with that key by one
    /// at the first one's place (or appends it); setting nil removes them.
    public subscript(key: String) -> JSONValue? {
        get { members.last(where: { $0.key.utf8.elementsEqual(key.utf8) })?.value }
        set {
            let first = members.firstIndex(where: { $0.key.utf8.elementsEqual(key.utf8) })
            members.removeAll(where: { $0.key.utf8.elementsEqual(key.utf8) })
            guard let newValue else { return }
            let member = Member(key: key, value: newValue)
            if let first {
                members.insert(member, at: first)
            } else {
                members.append(member)
            }
        }
    }

    public func contains(key: String) -> Bool {
        members.contains(where: { $0.key.utf8.elementsEqual(key.utf8) })
    }

    /// Appends a member without looking for an existing one (the parser's path).
    public mutating func append(key: String, value: JSONValue) {
        members.append(Member(key: key, value: value))
    }

    /// The members a reader keeps: of a key written more than once only its last, as lookup by key
    /// reads it; in the order written.
    public var lastOfEachKey: [Member] {
        members.indices.compactMap { index in
            let key = members[index].key.utf8
            let later = members[(index + 1)...].contains { $0.key.utf8.elementsEqual(key) }
            return later ? nil : members[index]
        }
    }

    /// Keys that appear more than once, in the order of their second appearance.
    public var duplicateKeys: [String] {
        var seen = Set<[UInt8]>()
        var duplicates: [String] = []
        for member in members where !seen.insert(Array(member.key.utf8)).inserted {
            if !duplicates.contains(where: { $0.utf8.elementsEqual(member.key.utf8) }) { duplicates.append(member.key) }
        }
        return duplicates
    }
}
