import Foundation
import QuarryCore

enum FileBytes {
    /// The whole file, or a `data.io` error saying why it cannot be read.
    static func read(_ path: String) throws(DataFileError) -> [UInt8] {
        guard let file = fopen(path, "rb") else { throw failure(path) }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        // The size is only a hint, and only for regular files (pipes and devices have none).
        var info = stat()
        if fstat(fileno(file), &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0 {
            bytes.reserveCapacity(Int(info.st_size))
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            bytes.append(contentsOf: chunk[0..<n])
            if n < chunk.count {
                if ferror(file) != 0 { throw failure(path) }
                return bytes
            }
        }
    }

    static func failure(_ path: String) -> DataFileError {
        DataFileError(code: .data.io, message: "cannot read the file: \(String(cString: strerror(errno)))", file: path)
    }
}
