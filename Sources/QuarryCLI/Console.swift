#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the CLI writes text. Injected so that tests (and embedders) can run commands
/// in-process and capture what they print.
public protocol TextSink: AnyObject {
    func write(_ text: String)
}

/// The three standard streams of one command invocation.
public struct Console {
    public var output: any TextSink
    public var error: any TextSink
    /// Reads standard input (for a `QUERY` of `-`) to its end or until it has at least the
    /// given number of bytes, whichever comes first: an over-long input is never read whole.
    public var readInput: (_ atMost: Int) throws -> [UInt8]
    /// Width to wrap help text at; nil lets ArgumentParser ask the terminal.
    public var columns: Int?

    public init(
        output: any TextSink, error: any TextSink,
        readInput: @escaping (_ atMost: Int) throws -> [UInt8], columns: Int? = nil
    ) {
        self.output = output
        self.error = error
        self.readInput = readInput
        self.columns = columns
    }

    /// The process's own stdin, stdout and stderr.
    public static func standard() -> Console {
        Console(
            output: FileDescriptorSink(1), error: FileDescriptorSink(2),
            readInput: { try FileDescriptorSink.read(0, atMost: $0) })
    }
}

/// Buffered writes to a file descriptor. Once the reader goes away (EPIPE, as in
/// `quarry run … | head`), further output is dropped instead of failing.
public final class FileDescriptorSink: TextSink {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var closed = false

    public init(_ fd: Int32) { self.fd = fd }

    /// Whether the descriptor is a terminal (progress lines are for people, not for logs).
    public var isTerminal: Bool { isatty(fd) == 1 }

    deinit { flush() }

    public func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    public func flush() {
        defer { buffer.removeAll(keepingCapacity: true) }
        guard !closed else { return }
        var written = 0
        while written < buffer.count {
            let n = buffer.withUnsafeBytes { raw in
                systemWrite(fd, raw.baseAddress! + written, raw.count - written)
            }
            if n > 0 { written += n; continue }
            if n < 0 && errno == EINTR { continue }
            closed = true  // EPIPE or another failure: nobody is reading any more
            return
        }
    }

    /// Reads a descriptor to its end, or until `atMost` bytes are in.
    static func read(_ fd: Int32, atMost limit: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count < limit {
            let want = Swift.min(chunk.count, limit - bytes.count)
            let n = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress!, want) }
            if n > 0 { bytes.append(contentsOf: chunk[0..<n]); continue }
            if n == 0 { return bytes }
            if errno == EINTR { continue }
            throw InputError(message: "cannot read standard input: \(String(cString: strerror(errno)))")
        }
        return bytes
    }
}

struct InputError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

private func systemWrite(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int) -> Int {
    #if canImport(Darwin)
        return Darwin.write(fd, p, n)
    #elseif canImport(Musl)
        return Musl.write(fd, p, n)
    #else
        return Glibc.write(fd, p, n)
    #endif
}

private func systemRead(_ fd: Int32, _ p: UnsafeMutableRawPointer, _ n: Int) -> Int {
    #if canImport(Darwin)
        return Darwin.read(fd, p, n)
    #elseif canImport(Musl)
        return Musl.read(fd, p, n)
    #else
        return Glibc.read(fd, p, n)
    #endif
}
