import Imaging

/// What a process that runs mcpack's work sets up before its first thread.
public enum MCPackProcess {
    /// Call first thing in `main`: the memory budget of a 34,000 px build
    /// holds only with glibc's malloc arenas capped (see Imaging).
    public static func prepare() {
        boundMemoryForWorkerThreads()
    }
}
