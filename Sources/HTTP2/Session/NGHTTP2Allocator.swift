import CNghttp2
import Glibc

// nghttp2's memory for one session (`nghttp2_session_*_new3` with an `nghttp2_mem`): nghttp2
// allocates a handful of small blocks per stream (the stream, its outbound items, a copy of the
// request's header fields...) and frees them when the stream closes: several malloc/free pairs
// per request, each through glibc's general-purpose bookkeeping. This keeps freed blocks on
// per-size free lists and hands them out again, a pointer swap each way.
//
//   block = [class: Int | capacity: Int] [payload, 16-byte aligned]
//   class >= 0: `capacity` = (class + 1) * 64 bytes, reused through freeLists[class]
//   class == -1: a large block straight from malloc, freed with free
//
// Each free list keeps at most `maximumCached` blocks (the rest go back to glibc), so a burst of
// streams does not pin its memory forever; `deinit` frees what is cached. Loop-confined, like the
// session that owns it: nghttp2 calls it only from inside that session's calls, and
// `nghttp2_session_del` (which frees through it) runs before the allocator is released.

final class NGHTTP2Allocator {
    static let granule = 64
    static let classCount = 16
    static let headerSize = 16
    static let maximumCached = 1024

    private let freeLists = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: classCount)
    private let cachedCounts = UnsafeMutablePointer<Int>.allocate(capacity: classCount)

    init() {
        freeLists.initialize(repeating: nil, count: Self.classCount)
        cachedCounts.initialize(repeating: 0, count: Self.classCount)
    }

    deinit {
        for index in 0..<Self.classCount {
            var block = freeLists[index]
            while let current = block {
                block = current.load(fromByteOffset: Self.headerSize, as: UnsafeMutableRawPointer?.self)
                Glibc.free(current)
            }
        }
        freeLists.deallocate()
        cachedCounts.deallocate()
    }

    /// The table to hand nghttp2 (it copies it). `self` must outlive the session.
    var mem: nghttp2_mem {
        nghttp2_mem(
            mem_user_data: Unmanaged.passUnretained(self).toOpaque(), malloc: allocatorMalloc, free: allocatorFree,
            calloc: allocatorCalloc, realloc: allocatorRealloc)
    }

    func allocate(_ size: Int) -> UnsafeMutableRawPointer? {
        let sizeClass = size <= 0 ? 0 : (size - 1) / Self.granule
        guard sizeClass < Self.classCount else {
            guard let block = Glibc.malloc(Self.headerSize + size) else { return nil }
            block.storeBytes(of: -1, as: Int.self)
            block.storeBytes(of: size, toByteOffset: MemoryLayout<Int>.size, as: Int.self)
            return block + Self.headerSize
        }
        if let block = freeLists[sizeClass] {
            freeLists[sizeClass] = block.load(fromByteOffset: Self.headerSize, as: UnsafeMutableRawPointer?.self)
            cachedCounts[sizeClass] -= 1
            return block + Self.headerSize
        }
        let capacity = (sizeClass + 1) * Self.granule
        guard let block = Glibc.malloc(Self.headerSize + capacity) else { return nil }
        block.storeBytes(of: sizeClass, as: Int.self)
        block.storeBytes(of: capacity, toByteOffset: MemoryLayout<Int>.size, as: Int.self)
        return block + Self.headerSize
    }

    func release(_ pointer: UnsafeMutableRawPointer?) {
        guard let pointer else { return }
        let block = pointer - Self.headerSize
        let sizeClass = block.load(as: Int.self)
        guard sizeClass >= 0, cachedCounts[sizeClass] < Self.maximumCached else {
            Glibc.free(block)
            return
        }
        block.storeBytes(of: freeLists[sizeClass], toByteOffset: Self.headerSize, as: UnsafeMutableRawPointer?.self)
        freeLists[sizeClass] = block
        cachedCounts[sizeClass] += 1
    }

    func reallocate(_ pointer: UnsafeMutableRawPointer?, _ size: Int) -> UnsafeMutableRawPointer? {
        guard let pointer else { return allocate(size) }
        let capacity = (pointer - Self.headerSize).load(fromByteOffset: MemoryLayout<Int>.size, as: Int.self)
        if size <= capacity { return pointer }
        guard let moved = allocate(size) else { return nil }
        moved.copyMemory(from: pointer, byteCount: capacity)
        release(pointer)
        return moved
    }
}

@inline(__always)
private func withAllocator<Result>(_ userData: UnsafeMutableRawPointer?, orElse failure: Result, _ body: (NGHTTP2Allocator) -> Result) -> Result {
    guard let userData else { return failure }
    return Unmanaged<NGHTTP2Allocator>.fromOpaque(userData)._withUnsafeGuaranteedRef(body)
}

private func allocatorMalloc(_ size: Int, _ userData: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    withAllocator(userData, orElse: nil) { $0.allocate(size) }
}

private func allocatorFree(_ pointer: UnsafeMutableRawPointer?, _ userData: UnsafeMutableRawPointer?) {
    withAllocator(userData, orElse: ()) { $0.release(pointer) }
}

private func allocatorCalloc(_ count: Int, _ size: Int, _ userData: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    let (total, overflow) = count.multipliedReportingOverflow(by: size)
    guard !overflow, let block = withAllocator(userData, orElse: nil, { $0.allocate(total) }) else { return nil }
    block.initializeMemory(as: UInt8.self, repeating: 0, count: total)
    return block
}

private func allocatorRealloc(
    _ pointer: UnsafeMutableRawPointer?, _ size: Int, _ userData: UnsafeMutableRawPointer?
) -> UnsafeMutableRawPointer? {
    withAllocator(userData, orElse: nil) { $0.reallocate(pointer, size) }
}
