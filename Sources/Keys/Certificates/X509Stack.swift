import COpenSSL

/// `STACK_OF(X509)` through the untyped `OPENSSL_sk_*` functions (the typed `sk_X509_*` are macros).
package enum X509Stack {
    /// Takes every `X509 *` out of `stack` (ownership passes to the caller) and frees the stack itself.
    package static func takeAll(_ stack: OpaquePointer?) -> [OpaquePointer] {
        guard let stack else { return [] }
        var certificates: [OpaquePointer] = []
        for index in 0..<max(OPENSSL_sk_num(stack), 0) {
            if let element = OPENSSL_sk_value(stack, index) {
                certificates.append(OpaquePointer(element))
            }
        }
        OPENSSL_sk_free(stack)
        return certificates
    }
}
