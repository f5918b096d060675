// `mcpack build` with one speed trick turned off, for the benchmark that
// weighs each trick in the figures a user sees (scripts/bench-tricks.sh,
// run by `make bench`). Not installed.
//
//   mcpack-tuning all|no-hash-ahead|one-lane|no-square-once|no-hash-while-writing|no-arena-cap [--output DIR]
//
// The extra dzsave worker is weighed with `all` and VIPS_CONCURRENCY set to
// the number of cores, which Imaging leaves alone.
import Foundation
import MCPackKit

var arguments = Array(CommandLine.arguments.dropFirst())
let usage = "usage: mcpack-tuning all|no-hash-ahead|one-lane|no-square-once|no-hash-while-writing|no-arena-cap [--output DIR]\n"
guard let variant = arguments.first else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}
var tuning = BuildTuning()
switch variant {
case "all", "no-arena-cap": break
case "no-hash-ahead": tuning.hashAhead = false
case "one-lane": tuning.launchLanes = 1
case "no-square-once": tuning.squareResizeOnce = false
case "no-hash-while-writing": tuning.hashWhileWriting = false
default:
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}
var output: String?
if let index = arguments.firstIndex(of: "--output"), index + 1 < arguments.count { output = arguments[index + 1] }
MCPackProcess.prepare(boundMemory: variant != "no-arena-cap")
do {
    let result = try await Builder.build(BuildOptions(output: output, tuning: tuning))
    print("\(result.outcome.rawValue) \(result.archive) \(result.sha256)")
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
