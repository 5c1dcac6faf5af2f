import Foundation

/// A command run to its end for `bench`'s peers: its standard output, exit status, wall time
/// from spawn to exit, and peak resident memory.
///
/// The peak is the child's `VmHWM` (the high-water mark of its own address space), sampled from
/// `/proc/PID/status` while it runs. `ru_maxrss` from `wait4` cannot be used: posix_spawn
/// starts the child in the parent's address space, and Linux keeps that space's high-water mark
/// across `exec`, so every child reported at least the bench's own resident size.
struct Subprocess {
    var output: String
    var status: Int32
    var seconds: Double
    /// Peak resident set in MB.
    var peakMB: Int

    static func run(_ arguments: [String], input: [UInt8] = []) -> Subprocess {
        guard let inPipe = pipe(), let outPipe = pipe() else {
            return Subprocess(output: "cannot create a pipe", status: -1, seconds: 0, peakMB: 0)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        for fd in inPipe + outPipe { posix_spawn_file_actions_addclose(&actions, fd) }
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        let start = ContinuousClock.now
        var pid: pid_t = 0
        spawning.lock()
        let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ)
        spawning.unlock()
        close(inPipe[0])
        close(outPipe[1])
        guard spawned == 0 else {
            close(inPipe[1])
            close(outPipe[0])
            return Subprocess(
                output: "cannot run \(arguments[0]): \(String(cString: strerror(spawned)))", status: -1, seconds: 0,
                peakMB: 0)
        }
        input.withUnsafeBytes { b in _ = write(inPipe[1], b.baseAddress, b.count) }
        close(inPipe[1])
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var peakKB = 0
        var reading = true
        while true {
            // Output when there is some, else every 10 ms a sample of the child's peak.
            if reading {
                var ready = pollfd(fd: outPipe[0], events: Int16(POLLIN), revents: 0)
                if poll(&ready, 1, 10) > 0 {
                    let n = chunk.withUnsafeMutableBytes { read(outPipe[0], $0.baseAddress, $0.count) }
                    if n > 0 { bytes += chunk[0..<n] } else { reading = false }
                }
            } else {
                usleep(10_000)
            }
            peakKB = max(peakKB, Self.highWaterKB(pid) ?? 0)
            var status: Int32 = 0
            if !reading, waitpid(pid, &status, WNOHANG) == pid {
                close(outPipe[0])
                let seconds = Measurement.seconds(ContinuousClock.now - start)
                let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
                return Subprocess(
                    output: String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines),
                    status: exit, seconds: seconds, peakMB: peakKB / 1024)
            }
        }
    }

    /// A pipe whose two ends are closed on `exec`: a child started by another thread meanwhile
    /// must not inherit them. It did (plain `pipe`), and two peers started at once each held
    /// the other's input open, so neither `cat` ever saw its input end. (`pipe2`, which sets
    /// the flag at once, is not in Swift's Glibc module; the lock keeps this process's other
    /// pipes from being made between the two calls while one of its children starts.)
    static func pipe() -> [Int32]? {
        spawning.lock()
        defer { spawning.unlock() }
        var fds: [Int32] = [0, 0]
        guard Glibc.pipe(&fds) == 0 else { return nil }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return fds
    }

    private static let spawning = NSLock()

    /// `VmHWM` of a live process in kB; nil once it has exited (a zombie has no address space).
    private static func highWaterKB(_ pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            // "VmHWM:\t  291700 kB"
            return Int(line.dropFirst(6).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }
}
