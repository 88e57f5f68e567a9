import Glibc
import Synchronization
import Testing

@testable import HTTP2

/// Records how it was told to stop.
private final class RecordingHandler: IOHandler {
    let hangups: LoopOwned<Int>
    init(hangups: LoopOwned<Int>) { self.hangups = hangups }
    func readable() {}
    func writable() {}
    func hangup() { hangups.value += 1 }
}

/// A thread's name from /proc (its `comm`).
private func threadName(_ id: Int) -> String? {
    guard let file = fopen("/proc/self/task/\(id)/comm", "r") else { return nil }
    defer { fclose(file) }
    var buffer = [CChar](repeating: 0, count: 32)
    guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
    let bytes = buffer.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }
    return String(decoding: bytes, as: UTF8.self)
}

@Suite(.timeLimit(.minutes(1)))
struct EventLoopShutdownTests {
    @Test func shutdownJoinsTheThread() async throws {
        let loop = try EventLoop(name: "join-me")
        let threadID = try await onLoop(loop) { currentThreadID() }
        let id = try #require(threadID)
        #expect(access("/proc/self/task/\(id)", F_OK) == 0)
        #expect(threadName(id) == "join-me", "the thread carries the loop's name")
        await loop.shutdown()
        #expect(loop.isShutDown)
        // pthread_join returns once the kernel clears the thread's tid, a moment before it removes the
        // task from /proc: nothing signals that removal, so the check gives it up to a second. A
        // thread that was not joined (still running its loop) never leaves, and fails the check.
        var gone = access("/proc/self/task/\(id)", F_OK) != 0
        for _ in 0..<1_000 where !gone {
            usleep(1_000)
            gone = access("/proc/self/task/\(id)", F_OK) != 0
        }
        #expect(gone, "the loop thread must be gone after shutdown")
    }

    @Test func workAcceptedBeforeShutdownRunsAndLaterWorkIsRefused() async throws {
        let loop = try EventLoop()
        let counter = Atomic<Int>(0)
        var accepted = 0
        for _ in 0..<1_000 where loop.execute({ counter.add(1, ordering: .relaxed) }) { accepted += 1 }
        await loop.shutdown()
        #expect(accepted == 1_000)
        #expect(counter.load(ordering: .relaxed) == 1_000)

        let refused = loop.execute { counter.add(1, ordering: .relaxed) }
        #expect(!refused)
        #expect(counter.load(ordering: .relaxed) == 1_000)
        _ = loop.scheduleFromAnyThread(after: 0) {}  // refused too, silently
        loop.cancelFromAnyThread(loop.scheduleFromAnyThread(after: 0) {})
        #expect(!loop.inEventLoop)
    }

    @Test func shutdownIsIdempotentInEveryForm() async throws {
        let loop = try EventLoop()
        loop.shutdownGracefully()
        loop.shutdownGracefully()
        await loop.shutdown()
        await loop.shutdown()
        #expect(loop.isShutDown)
    }

    @Test func concurrentShutdownsAllReturn() async throws {
        let loop = try EventLoop()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { await loop.shutdown() } }
            group.addTask { loop.shutdownGracefully() }
        }
        #expect(loop.isShutDown)
    }

    @Test func shutdownFromTheLoopThreadDoesNotDeadlock() async throws {
        let loop = try EventLoop()
        try await onLoop(loop) { loop.shutdownGracefully() }  // only asks the loop to stop
        await loop.shutdown()  // joins
        #expect(loop.isShutDown)
    }

    @Test func shutdownFromATaskRunningOnTheLoop() async throws {
        let loop = try EventLoop()
        await Task(executorPreference: loop) { await loop.shutdown() }.value
        #expect(loop.isShutDown)
    }

    @Test func tasksPreferringAStoppedLoopStillFinish() async throws {
        let loop = try EventLoop()
        await loop.shutdown()
        let (value, onLoop) = await Task(executorPreference: loop) { () -> (Int, Bool) in
            await Task.yield()
            return (7, loop.inEventLoop)
        }.value
        #expect(value == 7)
        #expect(!onLoop, "there is no loop thread any more")
    }

    @Test func handlersStillRegisteredAreHungUpAtShutdown() async throws {
        let loop = try EventLoop()
        let hangups = LoopOwned(0)
        let listener = LoopOwned<TCPListener?>(nil)
        try await onLoop(loop) {
            let socket = try TCPListener(host: "127.0.0.1", port: 0)
            listener.value = socket
            try loop.register(socket.fd, interest: .read, handler: RecordingHandler(hangups: hangups))
        }
        await loop.shutdown()
        #expect(hangups.value == 1)
        listener.value?.close()
    }

    @Test func pendingTimersAreDroppedAtShutdown() async throws {
        let loop = try EventLoop()
        let fired = Atomic<Bool>(false)
        _ = try await onLoop(loop) {
            loop.scheduleFromAnyThread(after: 60_000_000_000) { fired.store(true, ordering: .relaxed) }
        }
        await loop.shutdown()
        let didFire = fired.load(ordering: .relaxed)
        #expect(!didFire)
    }

    @Test func releasingLoopsInEveryStateIsSafe() async throws {
        // Shut down, then released here (join in deinit is a no-op).
        do {
            let loop = try EventLoop()
            await loop.shutdown()
        }
        // Asked to stop from its own thread and released here at once: deinit joins or, if the
        // loop thread holds the last reference, detaches.
        do {
            let loop = try EventLoop()
            loop.execute { loop.shutdownGracefully() }
        }
        // Shut down without joining, then released.
        do {
            let loop = try EventLoop()
            loop.requestStop()
            await loop.waitForExit()
        }
    }
}

@Suite(.timeLimit(.minutes(1)))
struct EventLoopGroupTests {
    @Test func nextHandsOutLoopsRoundRobin() async throws {
        let group = try EventLoopGroup(loopCount: 3, name: "group")
        let picks = (0..<9).map { _ in ObjectIdentifier(group.next()) }
        let loops = group.loops.map(ObjectIdentifier.init)
        #expect(group.loops.count == 3)
        #expect(picks == loops + loops + loops)
        #expect(group.loops.map(\.name) == ["group-0", "group-1", "group-2"])

        var threads: Set<Int> = []
        for loop in group.loops {
            if let id = try await onLoop(loop, { currentThreadID() }) { threads.insert(id) }
        }
        #expect(threads.count == 3, "one thread per loop")
        await group.shutdown()
        #expect(group.loops.allSatisfy { $0.isShutDown })
    }

    @Test func defaultsToOneLoopPerProcessor() throws {
        #expect(EventLoopGroup.defaultLoopCount >= 1)
        let group = try EventLoopGroup(loopCount: 0)
        #expect(group.loops.count == 1, "at least one loop")
        group.shutdownGracefully()
    }
}
