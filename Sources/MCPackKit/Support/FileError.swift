import FileIO

/// A file that could not be read or written, by path: the error the kit
/// and its boundaries (FileIO, Archiving) throw, under the kit's name so
/// that callers of the kit need not import FileIO.
package typealias FileError = FileIO.FileError
