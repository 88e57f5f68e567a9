/// The outcome of reading from a non-blocking socket.
///
/// Thread-safety: a value type; `Sendable`.
public enum IOResult: Hashable, Sendable {
    /// This many bytes (more than zero, unless the buffer was empty) were read.
    case bytes(Int)
    /// Nothing to read now; wait for the loop to report the socket readable.
    case wouldBlock
    /// The peer closed its side: no more bytes will come.
    case endOfFile
}

/// The outcome of writing to a non-blocking socket.
///
/// Thread-safety: a value type; `Sendable`.
public enum WriteResult: Hashable, Sendable {
    /// This many bytes were written, possibly fewer than given.
    case written(Int)
    /// The send buffer is full; wait for the loop to report the socket writable.
    case wouldBlock
}
