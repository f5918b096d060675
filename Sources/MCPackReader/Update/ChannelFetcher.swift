import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTP GETs from a channel through URLSession, each held to the bytes the
/// signed index allows (endless data), into memory for the index and its
/// signature, into a file for a list or an object, where a request resumes
/// a file already partly there with a Range request.
final class ChannelFetcher: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let base: URL
    private let headers: [String: String]
    private var session: URLSession!
    private let lock = NSLock()
    private var jobs: [Int: Job] = [:]

    init(base: URL, headers: [String: String], timeout: TimeInterval) {
        // A trailing slash, so "objects/ab/..." resolves under the channel,
        // not beside it.
        self.base = base.path.hasSuffix("/") ? base : base.appendingPathComponent("")
        self.headers = headers
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        // No cache of ours: the index must always be the server's, and
        // objects are checked by their SHA-256 anyway.
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        // A server that stops sending (slow retrieval) fails the request
        // after this long without a byte.
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpMaximumConnectionsPerHost = 4
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }

    /// The session holds its delegate until it is invalidated.
    func close() { session.invalidateAndCancel() }

    /// A small file whole, at most `limit` bytes; more is refused.
    func data(_ path: String, limit: Int) async throws -> Data {
        let job = Job(name: path, limit: Int64(limit), file: nil, offset: 0)
        var request = self.request(path)
        request.setValue("no-cache", forHTTPHeaderField: "Cache-Control")
        try await run(request, job)
        return job.memory
    }

    /// Fetches `path` into `file`, exactly `size` bytes in all: a file
    /// already partly there is continued from its end (HTTP Range), and
    /// started again if the server answers with the whole file. A shorter
    /// answer leaves what came for the next try; a longer one is refused.
    func file(_ path: String, to file: URL, size: Int64, progress: @escaping @Sendable (Int64) -> Void) async throws {
        if !FileManager.default.fileExists(atPath: file.path) {
            guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
                throw UpdateError.couldNot("\(file.path): cannot be created")
            }
        }
        let handle: FileHandle
        do { handle = try FileHandle(forWritingTo: file) } catch {
            throw UpdateError.couldNot("\(file.path): cannot be written (\(error.localizedDescription))")
        }
        defer { try? handle.close() }
        var have = Int64((try? handle.seekToEnd()) ?? 0)
        if have > size {
            try? handle.truncate(atOffset: 0)
            have = 0
        }
        if have == size { return }
        var request = self.request(path)
        if have > 0 { request.setValue("bytes=\(have)-", forHTTPHeaderField: "Range") }
        let job = Job(name: path, limit: size, file: handle, offset: have)
        job.progress = progress
        try await run(request, job)
        let total = job.offset + job.received
        guard total == size else {
            throw UpdateError.couldNot("\(path): the server sent \(total) of its \(size) bytes; the next try continues from there")
        }
        guard Durable.flush(handle.fileDescriptor) else {
            throw UpdateError.couldNot("\(file.path): cannot be flushed to disk (\(String(cString: strerror(errno))))")
        }
    }

    private func request(_ path: String) -> URLRequest {
        var request = URLRequest(url: URL(string: path, relativeTo: base)!.absoluteURL)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        // The bytes counted and resumed are the file's own, never a
        // compressed form of them.
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        return request
    }

    private func run(_ request: URLRequest, _ job: Job) async throws {
        try Task.checkCancellation()
        let task = session.dataTask(with: request)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
                // A cancel that came first must not meet a task never
                // resumed: URLSession reports nothing for it, and the
                // continuation would wait for ever.
                let start = lock.withLock { () -> Bool in
                    guard !job.cancelled else { return false }
                    job.continuation = continuation
                    jobs[task.taskIdentifier] = job
                    return true
                }
                if start { task.resume() } else { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let started = lock.withLock { () -> Bool in
                job.cancelled = true
                return jobs[task.taskIdentifier] != nil
            }
            if started { task.cancel() }
        }
    }

    private func job(_ task: URLSessionTask) -> Job? { lock.withLock { jobs[task.taskIdentifier] } }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let job = job(dataTask), job.failure == nil else { return }
        if !job.answered {
            job.answered = true
            if let failure = job.accept(dataTask.response) {
                job.failure = failure
                dataTask.cancel()
                return
            }
        }
        guard job.offset + job.received + Int64(data.count) <= job.limit else {
            job.failure = .refused("\(job.name): the server sent more than the \(job.limit) bytes the signed index lists")
            dataTask.cancel()
            return
        }
        do { try job.write(data) } catch {
            job.failure = .couldNot("\(job.name): cannot be written to disk (\(error.localizedDescription))")
            dataTask.cancel()
            return
        }
        job.received += Int64(data.count)
        job.progress?(Int64(data.count))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        guard let job = lock.withLock({ jobs.removeValue(forKey: task.taskIdentifier) }) else { return }
        if job.failure == nil, !job.answered, error == nil {
            job.failure = job.accept(task.response)
        }
        if let failure = job.failure {
            job.continuation?.resume(throwing: failure)
        } else if let error {
            let cancelled = (error as? URLError)?.code == .cancelled
            job.continuation?.resume(throwing: cancelled ? CancellationError() as Error
                                                         : UpdateError.couldNot("\(job.name): \(error.localizedDescription)"))
        } else {
            job.continuation?.resume()
        }
        job.continuation = nil
    }

    /// One request's state, touched by the session's serial delegate
    /// queue once it has started.
    final class Job: @unchecked Sendable {
        let name: String
        let limit: Int64
        /// Where the bytes go: this file, or `memory` when nil.
        let file: FileHandle?
        var memory = Data()
        /// Bytes already in the file before this request (a resume).
        var offset: Int64
        var received: Int64 = 0
        var answered = false
        /// Set under the fetcher's lock by a cancel.
        var cancelled = false
        var failure: UpdateError?
        var progress: (@Sendable (Int64) -> Void)?
        var continuation: CheckedContinuation<Void, Error>?

        init(name: String, limit: Int64, file: FileHandle?, offset: Int64) {
            self.name = name
            self.limit = limit
            self.file = file
            self.offset = offset
        }

        /// The answer's status: 200 (from the start: what a resume had is
        /// dropped) or 206 from exactly where the file stops.
        func accept(_ response: URLResponse?) -> UpdateError? {
            guard let http = response as? HTTPURLResponse else { return .couldNot("\(name): no HTTP answer") }
            switch http.statusCode {
            case 200:
                if offset > 0, let handle = file {
                    do { try handle.truncate(atOffset: 0) } catch { return .couldNot("\(name): cannot restart (\(error.localizedDescription))") }
                    offset = 0
                }
                return nil
            case 206 where offset > 0:
                let range = http.value(forHTTPHeaderField: "Content-Range") ?? ""
                guard range.hasPrefix("bytes \(offset)-") else {
                    return .couldNot("\(name): asked for bytes from \(offset), the server sent \"\(range)\"")
                }
                return nil
            default:
                return .couldNot("\(name): HTTP \(http.statusCode) (\(HTTPURLResponse.localizedString(forStatusCode: http.statusCode)))")
            }
        }

        func write(_ data: Data) throws {
            if let file { try file.write(contentsOf: data) } else { memory.append(data) }
        }
    }
}
