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
let status = QuarryTool.run(Array(CommandLine.arguments.dropFirst()), console: console)
(console.output as? FileDescriptorSink)?.flush()
(console.error as? FileDescriptorSink)?.flush()
exit(status)
