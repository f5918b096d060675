import Foundation
import Testing

/// Debian's nginx serving a folder on loopback, as a kiosk's channel is
/// served: Range requests, the files as they are on disk. Its access log
/// says which files a pull fetched, and with which status (206 for a
/// resumed one).
final class WebServer {
    let root: URL
    let port: Int
    private let folder: URL
    private var process: Process?

    var url: String { "http://127.0.0.1:\(port)/" }

    /// Serves `root`; `rate` (bytes a second) slows every answer, so a test
    /// can cut one in the middle.
    init(root: URL, rate: Int? = nil) throws {
        let binary = ["/usr/sbin/nginx", "/usr/bin/nginx", "/opt/homebrew/bin/nginx", "/usr/local/bin/nginx"]
            .first { FileManager.default.isExecutableFile(atPath: $0) }
        let nginx = try #require(binary, "nginx is missing: scripts/install-deps.sh --test installs it")
        self.root = root
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("mcpack-nginx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("temp"), withIntermediateDirectories: true)
        var lastError = ""
        // A free port is found by trying: nginx takes no port 0.
        for _ in 0..<20 {
            let port = Int.random(in: 20_000..<60_000)
            try Self.configuration(folder: folder, root: root, port: port, rate: rate).write(to: folder.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: nginx)
            process.arguments = ["-p", folder.path, "-c", folder.appendingPathComponent("nginx.conf").path]
            process.standardError = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            if Self.waitForListening(port: port, while: process) {
                self.port = port
                self.process = process
                return
            }
            kill(process.processIdentifier, SIGKILL)
            lastError = (try? String(contentsOf: folder.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
        }
        throw ServerError(message: "nginx did not start: \(lastError)")
    }

    struct ServerError: Error { var message: String }

    deinit { stop() }

    /// SIGKILL: what a cut connection looks like to a client. Polled, not
    /// waitUntilExit, which waits on a run loop that may no longer turn
    /// when the test process is ending.
    func stop() {
        guard let process else { return }
        kill(process.processIdentifier, SIGKILL)
        for _ in 0..<200 where process.isRunning { Thread.sleep(forTimeInterval: 0.01) }
        self.process = nil
    }

    /// The requests served so far: path and status, in order.
    func requests() -> [(path: String, status: Int)] {
        let text = (try? String(contentsOf: folder.appendingPathComponent("access.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ")
            guard parts.count == 2, let status = Int(parts[1]) else { return nil }
            return (String(parts[0]), status)
        }
    }

    private static func configuration(folder: URL, root: URL, port: Int, rate: Int?) -> String {
        let temp = folder.appendingPathComponent("temp").path
        return """
            daemon off;
            master_process off;
            worker_processes 1;
            pid \(folder.path)/nginx.pid;
            error_log \(folder.path)/error.log;
            events { worker_connections 64; }
            http {
                log_format paths '$uri $status';
                access_log \(folder.path)/access.log paths;
                client_body_temp_path \(temp)/body;
                proxy_temp_path \(temp)/proxy;
                fastcgi_temp_path \(temp)/fastcgi;
                uwsgi_temp_path \(temp)/uwsgi;
                scgi_temp_path \(temp)/scgi;
                default_type application/octet-stream;
                server {
                    listen 127.0.0.1:\(port);
                    root \(root.path);
                    \(rate.map { "limit_rate \($0);" } ?? "")
                    location ~ ^/index\\.json {
                        add_header Cache-Control no-cache;
                    }
                }
            }
            """
    }

    private static func waitForListening(port: Int, while process: Process) -> Bool {
        for _ in 0..<100 {
            guard process.isRunning else { return false }
            let probe = Process()
            probe.executableURL = URL(fileURLWithPath: "/bin/bash")
            probe.arguments = ["-c", "exec 3<>/dev/tcp/127.0.0.1/\(port)"]
            probe.standardError = FileHandle.nullDevice
            if (try? probe.run()) != nil {
                probe.waitUntilExit()
                if probe.terminationStatus == 0 { return true }
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }
}
