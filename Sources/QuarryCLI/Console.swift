import Foundation

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
    /// Hands buffered text on now (the shell does after each line, so that a script reading
    /// its answers does not wait).
    func flush()
}

extension TextSink {
    public func flush() {}
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
    /// Whether stdout and stderr are terminals: `run` prints a table rather than NDJSON to a
    /// terminal, and colour is used only on one (docs/ARCHITECTURE.md#terminals-and-pipes).
    public var outputIsTerminal: Bool
    public var errorIsTerminal: Bool
    /// The environment variables the tool reads (`NO_COLOR`, `HOME`, `QUARRY_HISTORY`).
    public var environment: [String: String]
    /// Standard input a line at a time, for `quarry shell`: a line editor with history on a
    /// terminal, plain lines from a pipe or file.
    public var lines: () -> any LineSource

    public init(
        output: any TextSink, error: any TextSink,
        readInput: @escaping (_ atMost: Int) throws -> [UInt8], columns: Int? = nil,
        outputIsTerminal: Bool = false, errorIsTerminal: Bool = false, environment: [String: String] = [:],
        lines: (() -> any LineSource)? = nil
    ) {
        self.output = output
        self.error = error
        self.readInput = readInput
        self.columns = columns
        self.outputIsTerminal = outputIsTerminal
        self.errorIsTerminal = errorIsTerminal
        self.environment = environment
        self.lines = lines ?? { BufferedLines(readInput) }
    }

    /// The process's own stdin, stdout and stderr.
    public static func standard() -> Console {
        let output = FileDescriptorSink(1)
        let environment = ProcessInfo.processInfo.environment
        return Console(
            output: output, error: FileDescriptorSink(2),
            readInput: { try FileDescriptorSink.read(0, atMost: $0) },
            outputIsTerminal: isatty(1) == 1, errorIsTerminal: isatty(2) == 1, environment: environment,
            lines: {
                guard isatty(0) == 1, isatty(1) == 1 else { return DescriptorLines(0) }
                return LineEditor(input: 0, output: output, history: History(environment: environment))
            })
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

func systemWrite(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int) -> Int {
    #if canImport(Darwin)
        return Darwin.write(fd, p, n)
    #elseif canImport(Musl)
        return Musl.write(fd, p, n)
    #else
        return Glibc.write(fd, p, n)
    #endif
}

func systemRead(_ fd: Int32, _ p: UnsafeMutableRawPointer, _ n: Int) -> Int {
    #if canImport(Darwin)
        return Darwin.read(fd, p, n)
    #elseif canImport(Musl)
        return Musl.read(fd, p, n)
    #else
        return Glibc.read(fd, p, n)
    #endif
}
