import Archiving
import CLibFuzzer
import Foundation

// mcpack-fuzz TARGET [libFuzzer options] [CORPUS ...]
// mcpack-fuzz seed CORPUS-ROOT EXAMPLE-ARCHIVE PROJECT-FOLDER [KEYS-FOLDER]
//
// One binary for every target, so `make fuzz` builds once. Built only with
// MCPACK_FUZZ=1 and -sanitize=fuzzer,address (see scripts/fuzz.sh).

// As the mcpack executable does at start: zip times in UTC (see ArchiveTimes).
ArchiveTimes.useUTC()
ArchiveNames.useUTF8()

var arguments = CommandLine.arguments

func usage() -> Never {
    let names = FuzzTarget.all.map(\.name).joined(separator: ", ")
    FileHandle.standardError.write(Data("""
        usage: mcpack-fuzz TARGET [libFuzzer options] [CORPUS ...]
               mcpack-fuzz seed CORPUS-ROOT EXAMPLE-ARCHIVE PROJECT-FOLDER [KEYS-FOLDER]
        targets: \(names)

        """.utf8))
    exit(2)
}

guard arguments.count >= 2 else { usage() }

if arguments[1] == "seed" {
    guard arguments.count == 5 || arguments.count == 6 else { usage() }
    do {
        try Seeds.write(root: URL(fileURLWithPath: arguments[2]), exampleArchive: arguments[3],
                        project: URL(fileURLWithPath: arguments[4]), keys: arguments.count == 6 ? URL(fileURLWithPath: arguments[5]) : nil)
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("mcpack-fuzz seed: \(error)\n".utf8))
        exit(1)
    }
}

// The target is named first; libFuzzer must not see that name, and the
// processes it forks (-fork=N) learn it from the environment instead.
let named = FuzzTarget.all.first { $0.name == arguments[1] }
if let named {
    setenv("MCPACK_FUZZ_TARGET", named.name, 1)
    arguments.remove(at: 1)
}
let fromEnvironment = ProcessInfo.processInfo.environment["MCPACK_FUZZ_TARGET"].flatMap { name in FuzzTarget.all.first { $0.name == name } }
guard let target = named ?? fromEnvironment else { usage() }
FuzzTarget.selected = target
target.setUp()

var argc = CInt(arguments.count)
var cStrings: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
let status = cStrings.withUnsafeMutableBufferPointer { buffer -> CInt in
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = buffer.baseAddress
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        FuzzTarget.selected!.run(data.map { Data(bytes: $0, count: size) } ?? Data())
        return 0
    }
}
exit(status)

/// compiler-rt links libFuzzer's own main (unused here, as `main` is ours),
/// and that main refers to this symbol; it is never called.
@_cdecl("LLVMFuzzerTestOneInput")
func unusedTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { 0 }
