// toml-crash-probe: parses stdin with TOMLKit, nothing else (no pre-flight
// scan). Exits 0 if it parses, 1 on a thrown parse error; if toml++ aborts,
// the process dies by a signal. Run by TOMLCrashProbeTests.
import Foundation
import TOMLKit

let data = FileHandle.standardInput.readDataToEndOfFile()
let text = String(decoding: data, as: UTF8.self)
do {
    _ = try TOMLTable(string: text)
    exit(0)
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
