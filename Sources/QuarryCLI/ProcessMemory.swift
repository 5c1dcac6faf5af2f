import CMalloc

/// How the command's process uses glibc's allocator (docs/STORAGE.md#direct-loading).
enum ProcessMemory {
    /// Runs a data file's load with every allocation of 1 MiB or more in a mapping of its own,
    /// given back to the system when freed, then lets large blocks come from the heap again
    /// for the queries that follow.
    ///
    /// While loading: the column store is a few large arrays, reserved, grown and trimmed;
    /// glibc's default threshold rises past each large block freed, so later columns came from
    /// the heap, where freed blocks stay resident (a fixed threshold took the benchmark's 1M-row
    /// load from 177 to 154 MB of peak memory). After it: a query's result buffers (its rows,
    /// its objectIds' bytes) are megabytes each; mapped afresh for every query, their pages were
    /// faulted in and zeroed each time (half of `age > 50`'s 17 ms over 1M rows).
    static func loading<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        #if canImport(Glibc)
            _ = mallopt(M_MMAP_THRESHOLD, 1 << 20)
            defer {
                // glibc's own ceiling for its rising threshold, and the trim threshold it keeps
                // at twice that: freed result buffers stay in the heap for the next query.
                _ = mallopt(M_MMAP_THRESHOLD, 32 << 20)
                _ = mallopt(M_TRIM_THRESHOLD, 64 << 20)
            }
        #endif
        return try body()
    }
}
