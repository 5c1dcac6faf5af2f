import Foundation
import Testing

@testable import QuarryCLI

/// How `bench` runs a peer: its output, exit status and its own peak memory.
@Suite struct SubprocessTests {
    /// A small child of a large parent reports its own peak, not the parent's: `wait4`'s
    /// `ru_maxrss` after `posix_spawn` carried the parent's high-water mark into every child.
    @Test func aChildsPeakIsItsOwn() {
        let size = 256 << 20
        var ballast = [UInt8](repeating: 1, count: size)
        for i in stride(from: 0, to: size, by: 4096) { ballast[i] = UInt8(truncatingIfNeeded: i) }
        let child = Subprocess.run(["/bin/sh", "-c", "sleep 0.2; echo done"])
        #expect(child.output == "done")
        #expect(child.status == 0)
        #expect(child.peakMB < 64, "the child's peak is \(child.peakMB) MB")
        #expect(ballast[4096] == 0)
    }

    @Test func exitStatusAndInputPassThrough() {
        let child = Subprocess.run(["/bin/sh", "-c", "cat; exit 3"], input: Array("in\n".utf8))
        #expect(child.output == "in")
        #expect(child.status == 3)
    }

    /// The pipes of one peer are not inherited by another started meanwhile from another thread
    /// (two tests that ran peers at once hung, each `cat` waiting for an input the other child
    /// held open): a pipe made as `run` makes its own stays out of a child started while it is
    /// open.
    @Test func aChildInheritsNoOtherPeersPipe() throws {
        let held = try #require(Subprocess.pipe())
        defer { for fd in held { close(fd) } }
        let child = Subprocess.run(["/bin/sh", "-c", "ls /proc/$$/fd"])
        #expect(child.status == 0)
        let open = Set(child.output.split(separator: "\n").compactMap { Int32($0) })
        #expect(open.contains(0) && open.contains(1))
        #expect(open.isDisjoint(with: held), "the child holds \(open.intersection(held).sorted()) of \(held)")
    }

    @Test func aMissingProgramIsReportedNotRun() {
        let child = Subprocess.run(["/nonexistent/quarry-peer"])
        #expect(child.status != 0)
    }
}
