import Archiving
import Imaging

/// What a process that runs mcpack's work sets up before its first thread.
package enum MCPackProcess {
    /// Call first thing in `main`: the memory budget of a 34,000 px build
    /// holds only with glibc's malloc arenas capped (see Imaging), and zip
    /// times, read or written, go through the C library's local time zone,
    /// which is set to UTC here, once, rather than by every archive reader
    /// and writer (see ArchiveTimes); entry names go through its locale's
    /// charset, set to UTF-8 here (see ArchiveNames).
    package static func prepare() {
        boundMemoryForWorkerThreads()
        UserTimeZone.capture()
        ArchiveTimes.useUTC()
        ArchiveNames.useUTF8()
    }
}
