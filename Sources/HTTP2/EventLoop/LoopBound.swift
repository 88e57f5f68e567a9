// Values confined to one event loop, checked: the form of swift-nio's `NIOLoopBound` and
// `NIOLoopBoundBox`. A loop-owned value often has to travel inside a `@Sendable` closure to reach
// its loop (`loop.execute { ... }`); wrapping it here says so in the type, instead of an
// `@unchecked Sendable` class whose confinement only a comment states, and every access asserts
// that it happens on the loop. `assert` is compiled out of release builds, so the hot paths that
// touch loop-owned state per request pay nothing for the check.

/// A value that belongs to one event loop: `Sendable`, so it can be handed to the loop, but read and
/// written only on the loop's thread (debug builds stop at an access from another thread).
///
/// Making one is allowed anywhere (objects are often built off the loop, then handed to it); from
/// then on only the loop touches ``value``. For a mutable value shared by several closures, use
/// ``LoopBoundBox``. Thread-safety: ``loop`` and ``isOnLoop`` may be used from any thread.
public struct LoopBound<Value>: @unchecked Sendable {
    // SAFETY: `unchecked` is the point of the type: `stored` is reached only through `value`,
    // whose accessors assert they run on `loop`.
    public let loop: EventLoop
    @usableFromInline var stored: Value

    @inlinable public init(_ value: Value, loop: EventLoop) {
        self.loop = loop
        self.stored = value
    }

    /// Whether the current thread may touch ``value``: it is `loop`'s thread.
    @inlinable public var isOnLoop: Bool { loop.inEventLoop }

    /// The value; on the loop's thread only.
    @inlinable public var value: Value {
        get {
            assert(loop.inEventLoop, "LoopBound: read off its loop '\(loop.name)'")
            return stored
        }
        set {
            assert(loop.inEventLoop, "LoopBound: written off its loop '\(loop.name)'")
            stored = newValue
        }
        _modify {  // in place: `value.append(x)` does not copy the value
            assert(loop.inEventLoop, "LoopBound: written off its loop '\(loop.name)'")
            yield &stored
        }
    }
}

/// A mutable value that belongs to one event loop, shared by reference (several closures on the loop
/// read and change the same value): the class form of ``LoopBound``, with the same checks.
///
/// Thread-safety: ``loop`` and ``isOnLoop`` may be used from any thread; ``value`` on `loop` only.
public final class LoopBoundBox<Value>: @unchecked Sendable {
    // SAFETY: as for LoopBound: the value is reached only through `bound.value`, which asserts the loop.
    @usableFromInline var bound: LoopBound<Value>

    @inlinable public init(_ value: Value, loop: EventLoop) {
        bound = LoopBound(value, loop: loop)
    }

    public var loop: EventLoop { bound.loop }

    /// Whether the current thread may touch ``value``: it is `loop`'s thread.
    @inlinable public var isOnLoop: Bool { bound.isOnLoop }

    /// The value; on the loop's thread only.
    @inlinable public var value: Value {
        get { bound.value }
        set { bound.value = newValue }
        _modify { yield &bound.value }
    }
}
