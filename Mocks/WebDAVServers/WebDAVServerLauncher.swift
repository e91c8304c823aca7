import ChildServers
import Foundation
import StratusDigest

#if canImport(Glibc)
    import Glibc
#endif

/// Starts real WebDAV servers on free loopback ports for tests: Apache httpd with mod_dav
/// (Debian `apache2`), rclone's WebDAV server (Debian `rclone`) and WsgiDAV (PyPI `wsgidav` and
/// `cheroot`). Each serves a folder of the caller's with HTTP Basic authentication for one user.
///
/// A server stops when this process's end of its stdin pipe closes, which the kernel does when
/// the process ends, however it ends: Apache and rclone run under a small shell that waits for
/// that end of file and then stops them; the WsgiDAV script watches stdin itself.
public enum WebDAVServerLauncher {
    /// A server kind.
    public enum Kind: String, Sendable, CaseIterable {
        /// Apache httpd with `mod_dav`, `mod_dav_fs` and `mod_dav_lock`, on the prefork MPM:
        /// mod_dav_fs guards its lock and property databases with `fcntl` locks, which keep
        /// processes apart but not the threads of one process, so under the threaded MPMs two
        /// concurrent LOCK requests can both be granted an exclusive lock (measured). A prefork
        /// child serves one connection at a time and keeps it through the keep-alive wait, so 40
        /// children start at once: with the default 4, sixteen concurrent clients stalled 5 s at a
        /// time (requests were not even received) until keep-alive timeouts freed a child.
        case apache
        /// `rclone serve webdav` over a local folder, with `--etag-hash MD5`.
        case rclone
        /// WsgiDAV on cheroot, dead properties and locks in memory.
        case wsgidav
    }

    /// A running server.
    public struct Server: Sendable {
        /// The server's root collection, `http://127.0.0.1:PORT/`.
        public var url: URL
        /// The folder it serves.
        public var root: URL
    }

    /// Whether a server kind is installed on this machine.
    public static func isInstalled(_ kind: Kind) -> Bool {
        switch kind {
        case .apache:
            FileManager.default.isExecutableFile(atPath: apacheBinary)
                && ["mod_dav.so", "mod_dav_fs.so", "mod_dav_lock.so"].allSatisfy {
                    FileManager.default.fileExists(atPath: apacheModules + "/" + $0)
                }
        case .rclone:
            executable(named: "rclone") != nil
        case .wsgidav:
            pythonImportsWsgiDAV
        }
    }

    private static let pythonImportsWsgiDAV = ChildServer.pythonImports("wsgidav.wsgidav_app, cheroot.wsgi")

    /// Starts a server over a new folder in `directory`.
    /// - Parameters:
    ///   - kind: Which server.
    ///   - directory: A folder for the server's files (data, configuration, logs).
    ///   - user: The user it accepts.
    ///   - password: That user's password.
    /// - Returns: The running server.
    /// - Throws: ``WebDAVServerUnavailable`` with the server's own output when it does not start.
    public static func start(_ kind: Kind, in directory: URL, user: String, password: String) async throws -> Server {
        try await ChildServer.offThePool {
            try startBlocking(kind, in: directory, user: user, password: password)
        }
    }

    /// ``start(_:in:user:password:)``, blocking the calling thread until the server answers.
    private static func startBlocking(_ kind: Kind, in directory: URL, user: String, password: String) throws
        -> Server
    {
        let root = directory.appending(path: "data")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        // Apache started as root serves as nobody, which must be able to write there.
        chmod(root.path, 0o777)
        chmod(directory.path, 0o777)
        switch kind {
        case .apache: return try startApache(root: root, directory: directory, user: user, password: password)
        case .rclone: return try startRclone(root: root, directory: directory, user: user, password: password)
        case .wsgidav: return try startWsgiDAV(root: root, directory: directory, user: user, password: password)
        }
    }

    // MARK: Apache

    static let apacheBinary = "/usr/sbin/apache2"
    static let apacheModules = "/usr/lib/apache2/modules"

    private static func startApache(root: URL, directory: URL, user: String, password: String) throws -> Server {
        let passwords = directory.appending(path: "htpasswd")
        // `{SHA}` hashes need no htpasswd binary; they are fine for a throwaway test server.
        let hash = sha1Base64(password)
        try "\(user):{SHA}\(hash)\n".write(to: passwords, atomically: true, encoding: .utf8)
        chmod(passwords.path, 0o644)
        let lockFolder = directory.appending(path: "locks")
        try FileManager.default.createDirectory(at: lockFolder, withIntermediateDirectories: true)
        chmod(lockFolder.path, 0o777)
        var lastError = ""
        for _ in 0..<5 {
            let port = try port()
            let configuration = directory.appending(path: "httpd.conf")
            let modules = [
                "mpm_prefork", "authz_core", "authn_core", "authn_file", "auth_basic", "authz_user", "dav", "dav_fs",
                "dav_lock",
            ]
            var text = "ServerRoot \"/usr/lib/apache2\"\n"
            for module in modules {
                text += "LoadModule \(module)_module \(apacheModules)/mod_\(module).so\n"
            }
            text += """
                User nobody
                Group nogroup
                Listen 127.0.0.1:\(port)
                ServerName 127.0.0.1
                PidFile \(directory.path)/httpd.pid
                ErrorLog \(directory.path)/error.log
                LogLevel warn
                LogFormat "%{%T}t.%{usec_frac}t %m %U %>s lock=%{Lock-Token}i%{Lock-Token}o" stratus
                CustomLog \(directory.path)/access.log stratus
                DAVLockDB \(lockFolder.path)/DAVLock
                DocumentRoot \(root.path)
                StartServers 40
                MinSpareServers 40
                MaxSpareServers 80
                ServerLimit 80
                MaxRequestWorkers 80
                KeepAliveTimeout 2
                <Directory \(root.path)>
                  Dav On
                  AuthType Basic
                  AuthName "stratus-test"
                  AuthUserFile \(passwords.path)
                  Require valid-user
                </Directory>

                """
            try text.write(to: configuration, atomically: true, encoding: .utf8)
            let log = directory.appending(path: "apache-console.log")
            // Its own process group, killed whole: the test process hands its children a signal mask
            // in which SIGTERM may be blocked, and Apache then never hears a polite stop.
            try launch(
                [
                    "/bin/sh", "-c", "setsid \(apacheBinary) -DFOREGROUND -f \"$1\" & \(Self.stopGroupOnEndOfInput)",
                    "sh", configuration.path,
                ], log: log)
            if waitForPort(port) {
                return Server(url: try url(port: port), root: root)
            }
            lastError =
                ((try? String(contentsOf: log, encoding: .utf8)) ?? "")
                + ((try? String(contentsOf: directory.appending(path: "error.log"), encoding: .utf8)) ?? "")
        }
        throw WebDAVServerUnavailable(reason: "Apache did not start: \(lastError)")
    }

    // MARK: rclone

    private static func startRclone(root: URL, directory: URL, user: String, password: String) throws -> Server {
        guard let rclone = executable(named: "rclone") else {
            throw WebDAVServerUnavailable(reason: "rclone is not installed (apt-get install rclone)")
        }
        let log = directory.appending(path: "rclone.log")
        let arguments = [
            rclone, "serve", "webdav", root.path, "--addr", "127.0.0.1:0", "--user", user, "--pass", password,
            "--etag-hash", "MD5", "--dir-cache-time", "0s", "--config", directory.appending(path: "rclone.conf").path,
        ]
        let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(
            separator: " ")
        try launch(["/bin/sh", "-c", "\(quoted) & \(Self.stopOnEndOfInput)"], log: log)
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if let range = text.range(of: "http://127.0.0.1:") {
                let digits = text[range.upperBound...].prefix { $0.isNumber }
                if let port = Int(digits), port > 0 { return Server(url: try url(port: port), root: root) }
            }
            usleep(50_000)
        }
        throw WebDAVServerUnavailable(
            reason: "rclone did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
    }

    // MARK: WsgiDAV

    private static func startWsgiDAV(root: URL, directory: URL, user: String, password: String) throws -> Server {
        let script = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "wsgidav-server.py")
        let port: Int
        do {
            port = try ChildServer.startReportingPort(
                ["/usr/bin/env", "python3", script.path, root.path, user, password],
                log: directory.appending(path: "wsgidav.log"), name: "WsgiDAV")
        } catch let failure as ChildServer.Failure {
            throw WebDAVServerUnavailable(reason: failure.reason)
        }
        return Server(url: try url(port: port), root: root)
    }

    // MARK: Helpers

    /// The shell's part after starting a server in the background: wait for the end of stdin
    /// (this process ended), then stop the server; also when the shell itself is told to stop.
    private static let stopOnEndOfInput =
        "server=$!; trap 'kill $server 2>/dev/null' EXIT HUP INT TERM PIPE; cat >/dev/null"

    /// The same for a server started with `setsid`, whose whole process group is killed.
    private static let stopGroupOnEndOfInput =
        "server=$!; trap 'kill -KILL -$server 2>/dev/null' EXIT HUP INT TERM PIPE; cat >/dev/null"

    /// Starts a command whose output goes to a log file and which stops with this process.
    private static func launch(_ arguments: [String], log: URL) throws {
        do {
            try ChildServer.launch(arguments, log: log)
        } catch let failure as ChildServer.Failure {
            throw WebDAVServerUnavailable(reason: failure.reason)
        }
    }

    private static func url(port: Int) throws -> URL {
        guard let url = URL(string: "http://127.0.0.1:\(port)/") else {
            throw WebDAVServerUnavailable(reason: "no URL for port \(port)")
        }
        return url
    }

    /// ``ChildServers/ChildServer/freeLoopbackPort()``, its failure as WebDAVServerUnavailable.
    private static func port() throws -> Int {
        do { return try ChildServer.freeLoopbackPort() } catch let failure as ChildServer.Failure {
            throw WebDAVServerUnavailable(reason: failure.reason)
        }
    }

    /// Waits up to ten seconds for a loopback port to accept connections.
    private static func waitForPort(_ port: Int) -> Bool {
        for _ in 0..<200 {
            let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            close(socketDescriptor)
            if connected { return true }
            usleep(50_000)
        }
        return false
    }

    private static func executable(named name: String) -> String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Base64 of the SHA-1 of a password, for Apache's `{SHA}` password form.
    private static func sha1Base64(_ text: String) -> String {
        Data((try? Digest.compute(.sha1, over: Data(text.utf8))) ?? []).base64EncodedString()
    }
}

/// A server could not be started.
public struct WebDAVServerUnavailable: Error, CustomStringConvertible {
    /// Why, with the server's own output.
    public var reason: String
    /// The reason, as it is.
    public var description: String { reason }

    /// Creates the error.
    /// - Parameter reason: Why, with the server's own output.
    public init(reason: String) { self.reason = reason }
}
