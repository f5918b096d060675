import MCPackBag
import MCPackInputs
import Foundation
import Imaging

extension Differ {
    /// Pictures whose manifest hashes differ: where a diff says how they
    /// changed. Each input says which of its files are pictures to compare.
    static func isPicture(_ change: Change) -> Bool {
        guard change.kind == "changed", let path = change.path else { return false }
        return Inputs.owner(of: path)?.comparesPixels(path) == true
    }


    /// Reads each changed picture from both versions (one pass over each) and
    /// fills in `pixels`. A picture that cannot be read or decoded is said to
    /// be so in `detail` rather than failing the whole diff.
    static func describePictures(_ changes: inout [Change], old: String, new: String) {
        let paths = Set(changes.filter(isPicture).compactMap(\.path))
        guard !paths.isEmpty else { return }
        let before: [String: Data], after: [String: Data]
        do {
            before = try BagFiles.read(paths, of: old)
            after = try BagFiles.read(paths, of: new)
        } catch {
            for index in changes.indices where isPicture(changes[index]) {
                changes[index].detail = "cannot read both versions to compare pixels: \(error)"
            }
            return
        }
        for index in changes.indices where isPicture(changes[index]) {
            let path = changes[index].path!
            let cannot = "cannot decode both versions to compare pixels"
            // Opening reads the header only; the comparison decodes the rest.
            guard let a = before[path].flatMap({ try? Image(data: $0) }),
                  let b = after[path].flatMap({ try? Image(data: $0) }) else {
                changes[index].detail = cannot
                continue
            }
            var change = PixelChange(oldSize: "\(a.width)x\(a.height)", newSize: "\(b.width)x\(b.height)")
            if a.width == b.width && a.height == b.height {
                guard let difference = try? a.pixelDifference(to: b), difference.sameSize else {
                    changes[index].detail = cannot
                    continue
                }
                change.changedFraction = difference.changedFraction
                change.meanDifference = difference.meanDifference
            }
            changes[index].pixels = change
            changes[index].detail = change.summary
        }
    }
}
