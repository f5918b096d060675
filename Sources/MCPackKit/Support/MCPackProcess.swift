import Archiving
import Imaging

/// What a process that runs mcpack's work sets up before its first thread.
package enum MCPackProcess {
    /// Call first thing in `main`: zip times, read or written, go through
    /// the C library's local time zone, which is set to UTC here, once,
    /// rather than by every archive reader and writer (see ArchiveTimes);
    /// entry names go through its locale's charset, set to UTF-8 here (see
    /// ArchiveNames).
    package static func prepare() {
        UserTimeZone.capture()
        ArchiveTimes.useUTC()
        ArchiveNames.useUTF8()
    }

    /// For a process whose work is libvips's workers making or decoding
    /// pictures (`mcpack build`, `mcpack preview` of a project, which
    /// builds it, and `mcpack diff`, which decodes the changed tiles): the
    /// memory budget of a 34,000 px build holds only with glibc's malloc
    /// arenas capped (see Imaging), and `diff --html` of two such bundles
    /// peaked higher without the cap, in about the same time. Call
    /// in `main`, on the main thread, before any await: glibc reads the cap
    /// once, when a second thread first allocates, and an await may resume
    /// on another thread. Not in every process: the threads that hash an
    /// unpacked bag for verify, each allocating for every file it reads
    /// (its digests, its record, the bytes kept), wait on the one arena's
    /// lock, and the verify takes longer.
    package static func prepareForPictureWork() {
        boundMemoryForWorkerThreads()
    }
}
