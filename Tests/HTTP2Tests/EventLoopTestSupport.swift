// Helpers shared by the EventLoop, Socket and Resolver suites.
import Glibc
import Synchronization

@testable import HTTP2

/// A value owned by one event loop, carried through `@Sendable` closures to be used on that loop.
final class LoopOwned<Value>: @unchecked Sendable {
    // SAFETY: tests touch `value` only on the loop thread, or after the loop handed control back
    // through a continuation (which orders the accesses).
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// Creates a loop, runs `body`, and shuts the loop down whatever `body` does.
func withLoop<Result>(
    _ name: String = "test-loop", _ body: (EventLoop) async throws -> Result
) async throws -> Result {
    let loop = try EventLoop(name: name)
    do {
        let result = try await body(loop)
        await loop.shutdown()
        return result
    } catch {
        await loop.shutdown()
        throw error
    }
}

/// Starts a detached pthread running `body` (a real thread, unlike a task on the cooperative pool).
func startThread(_ body: @escaping @Sendable () -> Void) {
    let retained = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(
        &thread, nil,
        { argument in
            guard let argument else { return nil }
            Unmanaged<ThreadBody>.fromOpaque(argument).takeRetainedValue().body()
            return nil
        }, retained)
    precondition(result == 0, "pthread_create failed: \(result)")
    pthread_detach(thread)
}

private final class ThreadBody: Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

/// The calling thread's kernel thread id, read from /proc/thread-self.
func currentThreadID() -> Int? {
    var buffer = [CChar](repeating: 0, count: 64)
    let count = readlink("/proc/thread-self", &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    let text = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return text.split(separator: "/").last.flatMap { Int($0) }
}

/// Runs `body` on `loop` and returns its result to the awaiting task.
func onLoop<Value: Sendable>(
    _ loop: EventLoop, _ body: @escaping @Sendable () throws -> Value
) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        let accepted = loop.execute { continuation.resume(with: Swift.Result { try body() }) }
        if !accepted { continuation.resume(throwing: SystemError(function: "execute", errno: ESHUTDOWN)) }
    }
}
