import HTTP2
import Testing

/// `LoopBound` and `LoopBoundBox`: the value is usable on its loop, and the predicate their debug
/// check asserts (a trap cannot be caught in a test) says no anywhere else.
@Suite(.timeLimit(.minutes(1)))
struct LoopBoundTests {
    /// Runs `body` on `loop` and returns what it returns.
    func onLoop<T: Sendable>(_ loop: EventLoop, _ body: @escaping @Sendable () -> T) async -> T? {
        await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            if !loop.execute({ continuation.resume(returning: body()) }) { continuation.resume(returning: nil) }
        }
    }

    @Test func offItsLoopTheCheckSaysNo() async throws {
        try await withLoop { loop in
            let bound = LoopBound([1, 2], loop: loop)
            let box = LoopBoundBox("start", loop: loop)
            #expect(!bound.isOnLoop, "the test's thread is not the loop's")
            #expect(!box.isOnLoop)
            try await withLoop("other-loop") { other in
                #expect(await onLoop(other) { bound.isOnLoop } == false, "another loop's thread is not its loop")
                #expect(await onLoop(other) { box.isOnLoop } == false)
            }
        }
    }

    @Test func onItsLoopTheValueIsReadAndWritten() async throws {
        try await withLoop { loop in
            let bound = LoopBound([1, 2], loop: loop)
            let seen = await onLoop(loop) {
                var copy = bound
                copy.value.append(3)
                return (copy.isOnLoop, copy.value)
            }
            #expect(seen?.0 == true)
            #expect(seen?.1 == [1, 2, 3])
        }
    }

    @Test func aBoxIsSharedByTheClosuresOnItsLoop() async throws {
        try await withLoop { loop in
            let box = LoopBoundBox([String](), loop: loop)
            for word in ["one", "two", "three"] {
                loop.execute { box.value.append(word) }
            }
            #expect(await onLoop(loop) { box.value } == ["one", "two", "three"], "work from one thread runs in order")
        }
    }
}
