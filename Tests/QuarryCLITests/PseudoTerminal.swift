import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `quarry` executable run on a real pseudo-terminal (openpty): its stdin, stdout and
/// stderr are the terminal's slave side, the test holds the master side as a person's
/// keyboard and screen would be.
final class PseudoTerminal {
    let process = Process()
    private let master: Int32
    /// Everything the program wrote so far, as the terminal received it.
    private(set) var screen: [UInt8] = []

    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    init(_ arguments: [String], environment: [String: String] = [:], directory: String) throws {
        var master: Int32 = -1, slave: Int32 = -1
        var size = winsize(ws_row: 24, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &slave, nil, nil, &size) == 0 else {
            throw Unavailable(description: "openpty failed: \(String(cString: strerror(errno)))")
        }
        self.master = master
        let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.executableURL = URL(fileURLWithPath: try Executables.quarry())
        process.arguments = arguments
        var env = ["PATH": "/usr/bin:/bin", "TERM": "xterm", "HOME": directory, "QUARRY_HISTORY": ""]
        env.merge(environment) { $1 }
        process.environment = env
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardInput = handle
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        close(slave)
    }

    deinit {
        if process.isRunning { process.terminate() }
        close(master)
    }

    /// Types bytes as a keyboard would.
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { write(master, $0.baseAddress!, $0.count) }
            if n <= 0 { return }
            written += n
        }
    }

    /// Reads until the screen holds `text` (true), or the program ends or 30 s pass (false).
    /// The limit only keeps a broken build from hanging the suite; nothing is timed.
    @discardableResult
    func waitFor(_ text: String) -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if String(decoding: screen, as: UTF8.self).contains(text) { return true }
            guard readSome(timeoutMillis: 200) else {
                return String(decoding: screen, as: UTF8.self).contains(text)
            }
        }
        return false
    }

    /// Reads all the program writes until it exits; returns its exit status.
    func finish() -> Int32 {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, readSome(timeoutMillis: 200) {}
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return process.terminationStatus
    }

    var text: String { String(decoding: screen, as: UTF8.self) }

    /// One read; false once the slave side is closed (the program ended) and nothing is left.
    private func readSome(timeoutMillis: Int32) -> Bool {
        var fds = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        let ready = poll(&fds, 1, timeoutMillis)
        if ready == 0 { return process.isRunning }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress!, $0.count) }
        if n > 0 {
            screen += buffer[0..<n]
            return true
        }
        return false  // EIO: no process holds the slave side any more
    }
}

/// The executables `swift build` put next to the test bundle.
enum Executables {
    struct Missing: Error, CustomStringConvertible {
        let path: String
        var description: String { "\(path) is not built; run swift build --build-tests" }
    }

    static func quarry() throws -> String {
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let path = dir.appendingPathComponent("quarry").path
        guard FileManager.default.isExecutableFile(atPath: path) else { throw Missing(path: path) }
        return path
    }

    /// Runs `quarry` with stdin a pipe holding `input` (then closed), stdout a pipe read to
    /// its end, stderr a file.
    static func runPiped(
        _ arguments: [String], input: String, environment: [String: String] = [:], directory: String
    ) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try quarry())
        process.arguments = arguments
        var env = ["PATH": "/usr/bin:/bin", "HOME": directory, "QUARRY_HISTORY": ""]
        env.merge(environment) { $1 }
        process.environment = env
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let errPath = directory + "/stderr-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let errFile = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = errFile
        try process.run()
        // The inputs of these tests fit in a pipe's buffer: written whole before reading.
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try errFile.close()
        let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), err)
    }
}
