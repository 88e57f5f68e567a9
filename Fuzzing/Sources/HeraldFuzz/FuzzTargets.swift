#if canImport(Glibc)
    import Glibc
#endif

/// A fuzz target: one input's bytes in; a broken property stops the process (libFuzzer saves the input).
typealias FuzzTarget = @Sendable (UnsafeBufferPointer<UInt8>) -> Void

enum FuzzTargets {
    /// Every target by the name scripts/fuzz and docs/FUZZING.md use.
    static let all: [String: FuzzTarget] = [
        "json": JSONTarget.run,
        "payload-lint": PayloadLintTarget.run,
        "payload-vs-lint": PayloadLintTarget.runDifferential,
        "provider-token": ProviderTokenTarget.run,
        "push-request": PushRequestTarget.run,
        "push-request-quick-vs-full": PushRequestTarget.runDifferential,
        "ndjson-line": NDJSONLineTarget.run,
        "keys": KeysTarget.run,
        "delivery-row": DeliveryRowTarget.run,
        "http1-request": HTTP1RequestTarget.run,
        "gateway-body": GatewayBodyTarget.run,
        "success-batch": SuccessBatchTarget.run,
    ]

    /// The targets whose seeds only Swift can make: `HeraldFuzz write-seeds TARGET DIR` writes them.
    static let seeds: [String: @Sendable () -> [String: [UInt8]]] = [
        "delivery-row": DeliveryRowTarget.seeds,
        "success-batch": SuccessBatchTarget.seeds,
    ]

    /// Set once by main before libFuzzer starts, read by its callback on the same thread.
    nonisolated(unsafe) static var selected: FuzzTarget = { _ in }

    static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        selected(bytes)
    }
}

/// Stops the process with `message` when `condition` is false: libFuzzer reports the input as a crash.
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    guard !condition() else { return }
    FileHandleOutput.standardError("property broken: \(message())\n")
    abort()
}

enum FileHandleOutput {
    static func standardError(_ text: String) {
        var text = text
        text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// The input split at the first byte `separator` (the rest after it); the whole input when there is none.
    func split(at separator: UInt8) -> (head: [UInt8], rest: [UInt8]?) {
        guard let index = firstIndex(of: separator) else { return (Array(self), nil) }
        return (Array(self[..<index]), Array(self[(index + 1)...]))
    }
}
