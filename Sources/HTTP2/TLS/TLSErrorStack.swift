import COpenSSL

/// The TLS layer's funnel for OpenSSL's thread-local error queue.
///
/// Each TLS call sequence starts with `clear()`, so what `reasons()` drains after a failure is that call's.
/// Reasons are OpenSSL's short texts (`certificate verify failed`, `tlsv13 alert certificate required`)
/// with any detail OpenSSL attached; they carry no key material.
enum TLSErrorStack {
    static func clear() {
        ERR_clear_error()
    }

    /// Empties the queue and returns its reasons, oldest first, without duplicates.
    static func reasons() -> [String] {
        var reasons: [String] = []
        while true {
            var data: UnsafePointer<CChar>? = nil
            var flags: Int32 = 0
            let code = ERR_get_error_all(nil, nil, nil, &data, &flags)
            if code == 0 { break }
            var reason = ERR_reason_error_string(code).map { String(cString: $0) } ?? "OpenSSL error \(code)"
            if flags & ERR_TXT_STRING != 0, let data, data.pointee != 0 {
                reason += " (\(String(cString: data)))"
            }
            if !reasons.contains(reason) { reasons.append(reason) }
        }
        return reasons
    }

    /// The drained reasons as one phrase, or `fallback` when the queue was empty.
    static func summary(or fallback: String) -> String {
        let drained = reasons()
        return drained.isEmpty ? fallback : drained.joined(separator: "; ")
    }
}
