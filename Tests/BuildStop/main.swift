// A build that stops itself (SIGSTOP) at one of its hooks, so that a test
// can kill it there with SIGKILL: the moments a crash must leave nothing
// partial at the final path. Used by BuildTests; not installed.
//
//   mcpack-build-stop before-commit|before-checksum [--overwrite]
import Foundation
import MCPackKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let arguments = CommandLine.arguments.dropFirst()
let stop: @Sendable () -> Void = { raise(SIGSTOP) }
var hooks = BuildHooks()
switch arguments.first {
case "before-commit": hooks.beforeCommit = stop
case "before-checksum": hooks.beforeChecksum = stop
default:
    FileHandle.standardError.write(Data("usage: mcpack-build-stop before-commit|before-checksum [--overwrite]\n".utf8))
    exit(2)
}
do {
    _ = try await Builder.build(BuildOptions(overwrite: arguments.contains("--overwrite"), hooks: hooks))
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
