// The gateway process's heap: freed memory is kept for reuse, not handed back to the kernel.
//
// A fan-out allocates and frees the same few hundred kilobytes per batch, on several threads:
// claimed rows, requests, outcomes, SQLite's statement and page buffers. With glibc's defaults a
// heap gives back its top once more than 128 KiB are free there, and blocks past a threshold come
// from mmap and go back with munmap; the next batch then takes page faults for the same memory
// again (fresh, zeroed pages) on every thread, the store's included. Keeping it costs resident
// memory the gateway has already used at its peak, nothing more.
import Glibc

/// Process-wide allocator settings for a gateway process.
public enum HeapTuning {
    /// Makes glibc keep freed memory for reuse: heaps are trimmed only past 64 MiB free at their
    /// top, and blocks under 32 MiB come from the heap, not mmap. Process-wide: the process that
    /// runs the gateway calls it once, at its start (the `herald gateway` command does).
    public static func keepFreedMemory() {
        // `mallopt` and its parameters are in <malloc.h>, which Swift's Glibc module leaves out: the
        // function is looked up by name, the parameters are glibc's (M_TRIM_THRESHOLD -1,
        // M_MMAP_THRESHOLD -3, fixed in its ABI).
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(nil, "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        _ = mallopt(-1, 64 << 20)
        _ = mallopt(-3, 32 << 20)
    }
}
