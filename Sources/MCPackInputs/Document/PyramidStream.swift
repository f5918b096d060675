import MCPackBag
import Archiving
import FileIO
import Foundation
import Imaging

/// A Deep Zoom pyramid made while the archive is written: libvips's dzsave
/// writes it as one stored zip into a pipe, libarchive reads that zip at the
/// other end, and each tile goes on to the archive writer. A tile is
/// written once, into the archive, and nothing of the pyramid touches disk
/// on the way.
///
/// dzsave's workers finish the tiles of a row in any order, so tiles are
/// handed over in `order` (`PyramidOrder`: each row
/// after the rows above it, the rows of each smaller level as they
/// complete), a tile that comes early held until its turn: a row or two at
/// most, since that order follows the one dzsave makes them in. Should
/// another libvips make them in another order, what is held past
/// `heldInMemory` bytes waits in an unlinked file in `spillFolder`, so
/// memory stays bounded whatever the order, and the archive is the same.
package struct PyramidStream: PayloadStream, @unchecked Sendable {
    /// The files, relative to data/, in the order handed over.
    package let order: PyramidOrder
    /// The folder under data/ the zip's top folder stands for (`document/`).
    package let folder: String
    package let name: String
    package let settings: PyramidSettings
    /// The master as it ships, opened when the tiles are made.
    package let master: () throws -> Image
    /// Percent done, seconds left, seconds since the tiling started.
    package let progress: @Sendable (Int, Int, TimeInterval) -> Void
    /// Names the master in a failure: the project's path of it.
    package let describe: (String) -> Error
    /// Where tiles held past `heldInMemory` wait: the work cache.
    package let spillFolder: URL
    /// dzsave's own order holds back a row or two of tiles, far below.
    package var heldInMemory = 32 << 20
    /// Told once if tiles are set aside on disk: the order was not the
    /// one expected, which is worth reporting.
    package var note: @Sendable (String) -> Void = { _ in }

    /// dzsave failed, or stopped because the reader did.
    private final class Outcome: @unchecked Sendable {
        package var error: Error?
    }

    /// An error of this side's (the archive writer's, or the disk's where
    /// tiles wait), not dzsave's: handed on as it is.
    private struct Consumer: Error {
        package let error: Error
    }

    package var count: Int { order.count }

    package func path(at index: Int) -> String { order.path(at: index) }

    package func make(_ body: (String, Data) throws -> Void) throws {
        let image: Image
        do { image = try master() } catch { throw describe("cannot open the master to tile it: \(error)") }
        let pipe = Pipe()
        let outcome = Outcome()
        let finished = DispatchSemaphore(value: 0)
        let writing = pipe.fileHandleForWriting
        let (name, settings, progress) = (self.name, self.settings, self.progress)
        let started = Date()
        let thread = Thread {
            do {
                try TilePyramid.writeZip(image, to: writing.fileDescriptor, name: name, settings: settings) { percent, eta in
                    progress(percent, eta, Date().timeIntervalSince(started))
                }
            } catch {
                outcome.error = error
            }
            // The reader sees the zip's end only once this end is closed.
            try? writing.close()
            finished.signal()
        }
        // dzsave's own workers do the tiling; this thread only waits on them.
        thread.stackSize = 1 << 20
        thread.start()
        // dzsave must reach its end whatever the reader does: a writer left
        // blocked on a full pipe would never return. The reader stops at the
        // zip's central directory (1.5 MB for 17,000 tiles, far more than a
        // pipe holds), so what follows is read and dropped.
        func drain() {
            // To the writer's close (end of file): a failed read is tried
            // again, as stopping early would leave dzsave blocked for good.
            var failures = 0
            while failures < 1000 {
                do {
                    guard let chunk = try pipe.fileHandleForReading.read(upToCount: 1 << 16), !chunk.isEmpty else { break }
                } catch {
                    failures += 1
                }
            }
            finished.wait()
        }
        do {
            try read(pipe.fileHandleForReading, body)
        } catch {
            TilePyramid.stop(image)
            drain()
            if let consumer = error as? Consumer { throw consumer.error }
            throw describe("cannot make the tile pyramid: \(outcome.error ?? error)")
        }
        drain()
        if let error = outcome.error { throw describe("cannot make the tile pyramid: \(error)") }
    }

    /// A tile waiting its turn.
    private enum Held {
        case memory(Data)
        case disk(offset: UInt64, count: Int)
    }

    private func read(_ handle: FileHandle, _ body: (String, Data) throws -> Void) throws {
        var early: [Int: Held] = [:]
        var held = 0
        var spill: SpillFile?
        var onDisk = 0
        var next = 0
        let reader = try ArchiveReader(streamingZipFrom: handle.fileDescriptor, name: "libvips's zip of \(name)")
        let top = name + "/"
        while let entry = try reader.next() {
            guard !entry.isDirectory else { continue }
            guard let stored = entry.path, stored.hasPrefix(top), entry.isRegular else {
                throw FileError(path: entry.path ?? "?", message: "is not a file of the pyramid \(name)")
            }
            var data = Data()
            data.reserveCapacity(Int(entry.size ?? 0))
            try reader.readData { data.append(contentsOf: $0) }
            // libvips stamps it with the date of tiling: it must not ship.
            if stored.hasSuffix("vips-properties.xml") { continue }
            let path = folder + stored.dropFirst(top.count)
            guard let position = order.place(of: path) else {
                throw FileError(path: path, message: "was written by libvips but is not a tile of this pyramid's layout")
            }
            guard position >= next, early[position] == nil else { throw FileError(path: path, message: "was written twice") }
            if position == next || held + data.count <= heldInMemory {
                early[position] = .memory(data)
                held += data.count
            } else {
                do {
                    if spill == nil {
                        spill = try SpillFile(in: spillFolder.path)
                        note("libvips made the tiles of \(name) in an order mcpack does not expect: tiles waiting their turn past "
                             + "\(heldInMemory / 1024) KB are set aside in \(spillFolder.path) until the archive takes them")
                    }
                    let place = try spill!.append(data)
                    early[position] = .disk(offset: place.offset, count: place.count)
                    onDisk += 1
                } catch {
                    throw Consumer(error: error)
                }
            }
            while let ready = early.removeValue(forKey: next) {
                let bytes: Data
                switch ready {
                case .memory(let data):
                    bytes = data
                    held -= data.count
                case .disk(let offset, let count):
                    do { bytes = try spill!.read(at: offset, count: count) } catch { throw Consumer(error: error) }
                    onDisk -= 1
                    // Nothing left waiting there: the space goes back.
                    if onDisk == 0 { do { try spill!.empty() } catch { throw Consumer(error: error) } }
                }
                do { try body(order.path(at: next), bytes) } catch { throw Consumer(error: error) }
                next += 1
            }
        }
        if next < order.count {
            throw FileError(path: order.path(at: next), message: "was not written by libvips (\(order.count - next) files of the pyramid missing)")
        }
    }
}
