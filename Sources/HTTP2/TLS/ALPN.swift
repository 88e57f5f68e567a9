import COpenSSL

/// ALPN (RFC 7301): the wire format of protocol lists, and the server's choice.
///
/// A list on the wire is a sequence of length-prefixed names (`\x02h2\x08http/1.1`). The server picks its
/// most preferred name that the client offered; with no overlap it must answer `no_application_protocol`.
enum ALPN {
    /// `protocols` in wire format; each name must be 1 to 255 bytes.
    static func wireFormat(_ protocols: [String]) throws(TLSError) -> [UInt8] {
        var wire: [UInt8] = []
        for name in protocols {
            let bytes = Array(name.utf8)
            guard (1...255).contains(bytes.count) else {
                throw .invalidConfiguration(reason: "ALPN protocol \(String(reflecting: name)) must be 1 to 255 bytes")
            }
            wire.append(UInt8(bytes.count))
            wire += bytes
        }
        return wire
    }

    /// The range in `offer` (a client's wire-format list) of the first of `preference` it contains, or nil.
    ///
    /// A malformed offer (a length running past its end) matches nothing after the malformation.
    static func select(preference: [[UInt8]], offer: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var offered: [Range<Int>] = []
        var index = 0
        while index < offer.count {
            let length = Int(offer[index])
            guard length > 0, index + 1 + length <= offer.count else { break }
            offered.append(index + 1..<index + 1 + length)
            index += 1 + length
        }
        for wanted in preference {
            if let match = offered.first(where: { offer[$0].elementsEqual(wanted) }) { return match }
        }
        return nil
    }
}

/// A server's ALPN preference, kept alive by its `TLSContext` for OpenSSL's select callback.
final class ALPNPreference: Sendable {
    let protocols: [[UInt8]]

    init(_ protocols: [String]) {
        self.protocols = protocols.map { Array($0.utf8) }
    }
}

/// OpenSSL's ALPN select callback for servers: `arg` is the context's unretained `ALPNPreference`.
///
/// `out` points into `offer`, which OpenSSL copies before the callback's caller returns.
let selectALPN:
    @convention(c) (
        OpaquePointer?, UnsafeMutablePointer<UnsafePointer<UInt8>?>?, UnsafeMutablePointer<UInt8>?,
        UnsafePointer<UInt8>?, UInt32, UnsafeMutableRawPointer?
    ) -> Int32 = { _, out, outLength, offer, offerLength, arg in
        guard let out, let outLength, let offer, let arg else { return SSL_TLSEXT_ERR_ALERT_FATAL }
        let preference = Unmanaged<ALPNPreference>.fromOpaque(arg).takeUnretainedValue()
        let buffer = UnsafeBufferPointer(start: offer, count: Int(offerLength))
        guard let match = ALPN.select(preference: preference.protocols, offer: buffer) else {
            return SSL_TLSEXT_ERR_ALERT_FATAL  // RFC 7301 section 3.2: no_application_protocol
        }
        out.pointee = offer + match.lowerBound
        outLength.pointee = UInt8(match.count)
        return SSL_TLSEXT_ERR_OK
    }
