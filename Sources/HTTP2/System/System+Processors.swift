import Glibc

extension System {
    /// The processors this process may run on: the CPU affinity mask (`sched_getaffinity`), which
    /// `taskset` and container CPU sets narrow; the online processors if that fails. At least 1.
    ///
    /// CPU quotas (cgroup `cpu.max`) are not considered: they limit time, not processors.
    public static func activeProcessorCount() -> Int {
        let maskBytes = 1024 / 8  // glibc's cpu_set_t: 1024 CPUs
        var mask = [UInt8](repeating: 0, count: maskBytes)
        if let getAffinity = LinuxSymbols.schedGetAffinity,
            mask.withUnsafeMutableBytes({ getAffinity(0, maskBytes, $0.baseAddress) }) == 0
        {
            let count = mask.reduce(0) { $0 + $1.nonzeroBitCount }
            if count > 0 { return count }
        }
        return max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }
}
