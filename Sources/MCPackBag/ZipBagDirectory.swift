import Archiving

/// A zip bag's central directory, read before any entry: what its entries
/// are called inside the bag and the sizes they declare, without walking
/// 17,000 local headers. `BagReader` checks the entries against it, so a
/// caller that read it first hands it on rather than reading it twice.
package struct ZipBagDirectory {
    /// An entry as the directory names it: `data/x.png` under `top`.
    package struct Entry {
        package var top: String
        package var path: String
        package var size: UInt64
    }

    package let raw: [ZipDirectory.Entry]

    /// nil for a file that is not a zip, or one whose directory cannot be
    /// read (`BagReader` then reads it entry by entry and says so).
    package init?(_ path: String) {
        guard BagReader.isZip(path), let raw = ZipDirectory.entries(of: path) else { return nil }
        self.raw = raw
    }

    /// The entries inside a top folder, in the directory's order. A name
    /// that is not UTF-8 is shown decoded here; it is refused when read.
    package var entries: [Entry] {
        raw.compactMap { entry in
            let name = String(decoding: entry.name, as: UTF8.self)
            guard let slash = name.firstIndex(of: "/") else { return nil }
            return Entry(top: String(name[..<slash]), path: String(name[name.index(after: slash)...]), size: entry.size)
        }
    }
}
