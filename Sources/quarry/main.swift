#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import QuarryCLI

// A closed pipe (`quarry run … | head`) ends the output quietly instead of killing the process.
signal(SIGPIPE, SIG_IGN)
let console = Console.standard()
// The raw bytes of each argument: CommandLine.arguments would repair invalid UTF-8 unseen.
let arguments = (1..<Int(CommandLine.argc)).map { i in
    CommandLine.unsafeArgv[i].map {
        Array(UnsafeBufferPointer(start: $0, count: strlen($0))).map(UInt8.init(bitPattern:))
    } ?? []
}
let status = QuarryTool.run(rawArguments: arguments, console: console)
(console.output as? FileDescriptorSink)?.flush()
(console.error as? FileDescriptorSink)?.flush()
exit(status)
