import CMalloc

/// How the command's process uses glibc's allocator (docs/STORAGE.md#direct-loading).
public enum ProcessMemory {
    /// Keeps every allocation of 1 MiB or more in a mapping of its own, given back to the
    /// system when freed. The column store is a few large arrays, reserved, grown and trimmed
    /// while a file loads; glibc's default threshold rises past each large block freed, so
    /// later columns came from the heap, where freed blocks stay resident: a fixed threshold
    /// took the benchmark's 1M-row load from 177 to 154 MB of peak memory.
    public static func keepLargeBlocksMapped() {
        #if canImport(Glibc)
            _ = mallopt(M_MMAP_THRESHOLD, 1 << 20)
        #endif
    }
}
