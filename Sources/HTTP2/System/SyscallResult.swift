/// The outcome of a non-blocking system call that did not fail.
///
/// `EAGAIN`/`EWOULDBLOCK` (and `EINPROGRESS` for `connect`) are outcomes, not errors: they become
/// ``wouldBlock``. Thread-safety: a value type; `Sendable` when its value is.
public enum SyscallResult<Value> {
    /// The call completed and returned this value.
    case completed(Value)
    /// The call would have blocked (`EAGAIN`/`EWOULDBLOCK`; `EINPROGRESS` for `connect`).
    case wouldBlock
}

extension SyscallResult: Sendable where Value: Sendable {}
extension SyscallResult: Equatable where Value: Equatable {}
