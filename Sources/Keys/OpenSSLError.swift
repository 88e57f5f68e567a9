import COpenSSL

/// The funnel for OpenSSL's thread-local error queue.
///
/// Every call sequence starts with `OpenSSLError.clear()` so that the errors drained after a failure
/// belong to that sequence, not to an earlier caller on the same thread.
enum OpenSSLError {
    /// Empties the queue before a call sequence.
    static func clear() {
        ERR_clear_error()
    }

    /// Empties the queue and returns its entries, oldest first, as one-line strings.
    static func drain() -> [String] {
        var entries: [String] = []
        while true {
            var data: UnsafePointer<CChar>? = nil
            var flags: Int32 = 0
            let code = ERR_get_error_all(nil, nil, nil, &data, &flags)
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            var entry = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if flags & ERR_TXT_STRING != 0, let data, data.pointee != 0 {
                entry += " (\(String(cString: data)))"
            }
            entries.append(oneLine(entry))
        }
        return entries
    }

    /// A `KeysError` for a failed call to `function`, carrying the drained queue.
    static func failure(_ function: String) -> KeysError {
        .openSSLFailure(function: function, errors: drain())
    }

    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
