import Foundation
import QuarryCore

/// A data file's bytes for a streaming load (docs/STORAGE.md#direct-loading): a regular file is
/// mapped read-only and the pages behind the reader are given back as it goes, so the file
/// never sits in memory whole; anything else (a pipe, an empty file) is read into memory.
final class MappedFile {
    let bytes: UnsafeBufferPointer<UInt8>
    private let mapped: Bool
    /// Pages below this offset have been given back.
    private var released = 0

    init(path: String) throws(DataFileError) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw FileBytes.failure(path) }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0,
            let base = mmap(nil, Int(info.st_size), PROT_READ, MAP_PRIVATE, fd, 0),
            base != UnsafeMutableRawPointer(bitPattern: -1)
        {
            _ = madvise(base, Int(info.st_size), MADV_SEQUENTIAL)
            bytes = UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: Int(info.st_size))
            mapped = true
            return
        }
        let data = try FileBytes.read(path)
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, data.count))
        _ = copy.initialize(from: data)
        bytes = UnsafeBufferPointer(start: copy.baseAddress, count: data.count)
        mapped = false
    }

    /// The reader is past `offset`: whole pages before it leave memory (they are read from the
    /// file again if anything looks back, as an error report does).
    func release(before offset: Int) {
        guard mapped, let base = bytes.baseAddress else { return }
        let page = Int(getpagesize())
        let end = offset / page * page
        guard end - released >= 1 << 22 else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base) + released, end - released, MADV_DONTNEED)
        released = end
    }

    deinit {
        if mapped {
            munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count)
        } else {
            UnsafeMutableBufferPointer(mutating: bytes).deallocate()
        }
    }
}
