// Lint verdicts for the requests of a bulk stream, by exact payload bytes and header texts: a file
// of identical requests is linted once. Bounded: past `capacity` distinct combinations the table is
// emptied and filled again (a file of all-different payloads lints each line, as a single send does).

import APNs
import Synchronization

/// What the linter said about one payload with one set of headers.
///
/// Thread-safety: immutable; shared by every line with that payload and those headers.
public final class RequestLint: Sendable {
    /// The push type sent when the line gives none: the linter's inference, alert when it cannot tell.
    public let pushType: PushType
    /// Errors and warnings (not the informational notes), errors first.
    public let findings: [Finding]
    /// The first error, if any: what refuses the line.
    public let firstError: Finding?
    public let hasWarnings: Bool

    init(_ report: LintReport) {
        pushType = report.pushType ?? .alert
        findings = report.findings.filter { $0.severity != .info }.sorted { $0.severity < $1.severity }
        firstError = findings.first { $0.severity == .error }
        hasWarnings = findings.contains { $0.severity == .warning }
    }

    /// How a line refused for `error` is reported.
    func refusal(_ error: Finding) -> String {
        "refused by lint: \(error.rule.id) \(error.text)"
    }
}

/// What a verdict depends on. Hashes the payload as one block of bytes (not byte by byte).
struct RequestLintKey: Hashable {
    let payload: [UInt8]
    let topic: String?
    let pushType: String?
    let priority: String?
    let expiration: String?
    let collapseID: String?

    func hash(into hasher: inout Hasher) {
        payload.withUnsafeBytes { hasher.combine(bytes: $0) }
        hasher.combine(topic)
        hasher.combine(pushType)
        hasher.combine(priority)
        hasher.combine(expiration)
        hasher.combine(collapseID)
    }
}

/// Lint verdicts by exact input, the last payload read and the last topic, shared by copies of a decoder.
final class RequestLintCache: Sendable {
    struct State {
        var verdicts: [RequestLintKey: RequestLint] = [:]
        /// The verdict last found or made, and what it was for.
        var lastKey: RequestLintKey?
        var lastVerdict: RequestLint?
        /// The topic of the last line (`topicValue`).
        var lastTopic: Topic?
        /// The payload of the last line read by the scan (`newPayload`).
        var lastPayload: [UInt8] = []
        /// The verdict for `lastPayload` with the decoder's default headers, once made.
        var lastPayloadVerdict: RequestLint?
    }

    static let capacity = 1024
    let state = Mutex(State())

    /// The verdict made before for `key`, if any.
    func verdict(for key: RequestLintKey) -> RequestLint? {
        state.withLock { state -> RequestLint? in
            // The last verdict first: comparing the bytes (the same array, when the scan found the
            // last payload again) is cheaper than hashing them, and bulk files often repeat one request.
            // Compared in place: copying the last verdict out retained and released its key.
            if state.lastKey == key { return state.lastVerdict }
            guard let known = state.verdicts[key] else { return nil }
            state.lastKey = key
            state.lastVerdict = known
            return known
        }
    }

    func remember(_ verdict: RequestLint, for key: RequestLintKey) {
        state.withLock { state in
            if state.verdicts.count >= Self.capacity { state.verdicts.removeAll(keepingCapacity: true) }
            state.verdicts[key] = verdict
            state.lastKey = key
            state.lastVerdict = verdict
        }
    }
}
