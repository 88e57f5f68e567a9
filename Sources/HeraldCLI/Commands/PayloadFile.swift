import APNs

/// A payload as a file holds it and as Herald sends it.
enum PayloadFile {
    /// The bytes `herald send` sends for `file`, and the ones `herald lint` checks: APNs counts every
    /// byte against the size limit, whitespace included, so a pretty-printed file goes out compact
    /// (same members in the same order, numbers as written). Text that is not JSON stays as it is,
    /// for lint to explain.
    static func compacted(_ file: [UInt8]) -> [UInt8] {
        guard let value = try? JSONValue(parsing: file) else { return file }
        let compact = value.encoded()
        return compact.count < file.count ? compact : file
    }
}
