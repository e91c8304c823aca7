import BenchmarkSupport

/// What the benchmark does, from its command line.
struct BenchmarkOptions: Sendable {
    /// The large file's size, in MiB.
    var sizeMiB = 1024
    /// How many small files each client uploads.
    var files = 1000
    /// The small files' size.
    var fileBytes = 4096
    /// How many uploads Stratus runs at once.
    var concurrency = 16
    /// How many threads the SDK scripts use; 1 runs them sequentially, as most scripts do.
    var sdkThreads = 1
    /// How many entries the change feed holds (the files created to fill it).
    var feedEntries = 100_000
    /// The `stratus-mock` executable.
    var mockExecutable = "stratus-mock"
    /// The virtualenvs with the official SDKs.
    var dropboxPython = ".build-sdk-venv/bin/python"
    var drivePython = ".build-drive-venv/bin/python"
    var onedrivePython = ".build-onedrive-venv/bin/python"
    /// The providers whose rows are measured, in this order.
    var providers: [Provider] = Provider.allCases
    /// Dropbox's small-file rows: against the mock with write contention on (its default, the
    /// main mock), off (a second mock with `--no-write-contention`), or both, in that order.
    var dropboxContention: [Bool] = [true, false]
    /// Dropbox's small-file rows also run Stratus's batch commits this many at once (a batch
    /// holds the uploads in flight, so its size follows the concurrency); 0 for no such line.
    var dropboxBatchConcurrency = 128
    var showHelp = false

    var sizeBytes: Int64 { Int64(sizeMiB) * 1_048_576 }

    /// The options that shape the figures, as a command line would give them.
    var summary: String {
        "--providers \(providers.map(\.rawValue).joined(separator: ",")) --size-mib \(sizeMiB) --files \(files)"
            + " --concurrency \(concurrency) --sdk-threads \(sdkThreads) --feed-entries \(feedEntries)"
            + (providers.contains(.dropbox)
                ? " --dropbox-contention \(dropboxContentionText) --dropbox-batch-concurrency \(dropboxBatchConcurrency)"
                : "")
    }

    private var dropboxContentionText: String {
        switch dropboxContention {
        case [true]: "on"
        case [false]: "off"
        default: "both"
        }
    }

    static let usage = """
        usage: stratus-adapter-benchmark [--providers LIST] [--size-mib N] [--files N] [--concurrency N]
                                         [--sdk-threads N] [--feed-entries N] [--dropbox-contention on|off|both]
                                         [--dropbox-batch-concurrency N] [--mock PATH]
                                         [--dropbox-python PATH] [--drive-python PATH] [--onedrive-python PATH]

        Measures Stratus's adapters next to other clients of the same server, each client in a process of
        its own, and prints one Markdown table (standard output; progress on standard error).

          --providers LIST    which rows, comma-separated, from dropbox,drive,onedrive,s3,webdav,s3-ceph
                              (default: all)
                              dropbox, drive, onedrive: against stratus-mock (Dropbox over HTTPS), next to the curl
                                tool (raw, and piped through the provider's hash with an fsync) and the
                                official Python SDK
                              s3: against moto's S3 server (python3 with moto[server]), next to rclone
                              s3-ceph: against Ceph's RADOS Gateway on a single-node cluster (ceph-mon,
                                ceph-osd, radosgw, ceph-common), next to rclone
                              webdav: against Apache httpd's mod_dav (apache2), next to curl and rclone
          --size-mib N        the large file, uploaded and downloaded by every client (default 1024)
          --files N           how many 4 KiB files each client uploads (default 1000)
          --concurrency N     how many of them Stratus uploads at once (default 16); rclone runs with its
                              default --transfers 4 and with N
          --sdk-threads N     threads of the SDK scripts (default 1: sequential, as most scripts are)
          --feed-entries N    Dropbox, Drive and OneDrive: the change feed read by Stratus and the SDK (default 100000)
          --dropbox-contention on|off|both
                              Dropbox's small files: against the mock with its write contention on (its
                              default: a 429 too_many_write_operations past 2 overlapping commits), off (a
                              second mock, --no-write-contention), or both (default). Each row has Stratus
                              with batch commits, Stratus with single commits, the SDK's single-commit loop;
                              with contention on also rclone copy --dropbox-batch-mode sync (rclone reaches
                              the mock under Dropbox's host names through a CONNECT proxy)
          --dropbox-batch-concurrency N
                              Dropbox's small files: one more line, Stratus's batch commits with N uploads
                              at once (default 128; 0: no such line). A batch holds the uploads in flight,
                              so its size, and the throughput under contention, follow the concurrency
          --mock PATH         the stratus-mock executable
          --dropbox-python PATH, --drive-python PATH, --onedrive-python PATH
                              the interpreters of the virtualenvs with the SDKs (OneDrive: msgraph-sdk)

        Every row also reports each client's CPU time (user + system) and the server's CPU meanwhile.
        """

    init(arguments: [String]) throws {
        var remaining = arguments[...]
        func value(_ option: String) throws -> String {
            guard let text = remaining.popFirst() else { throw BenchmarkFailure("\(option) needs a value") }
            return text
        }
        func number(_ option: String) throws -> Int {
            let text = try value(option)
            guard let number = Int(text), number > 0 else {
                throw BenchmarkFailure("\(option) needs a positive number, not '\(text)'")
            }
            return number
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "-h", "--help": showHelp = true
            case "--size-mib": sizeMiB = try number(argument)
            case "--files": files = try number(argument)
            case "--concurrency": concurrency = try number(argument)
            case "--sdk-threads": sdkThreads = try number(argument)
            case "--feed-entries": feedEntries = try number(argument)
            case "--mock": mockExecutable = try value(argument)
            case "--dropbox-python": dropboxPython = try value(argument)
            case "--drive-python": drivePython = try value(argument)
            case "--onedrive-python": onedrivePython = try value(argument)
            case "--dropbox-batch-concurrency":
                let text = try value(argument)
                guard let number = Int(text), number >= 0 else {
                    throw BenchmarkFailure("\(argument) needs a number, not '\(text)'")
                }
                dropboxBatchConcurrency = number
            case "--dropbox-contention":
                switch try value(argument) {
                case "on": dropboxContention = [true]
                case "off": dropboxContention = [false]
                case "both": dropboxContention = [true, false]
                case let text: throw BenchmarkFailure("--dropbox-contention is on, off or both, not '\(text)'")
                }
            case "--providers":
                let text = try value(argument)
                providers = try text.split(separator: ",").map { name in
                    guard let provider = Provider(rawValue: name.trimmingCharacters(in: .whitespaces).lowercased())
                    else {
                        throw BenchmarkFailure(
                            "--providers: '\(name)' is none of dropbox, drive, onedrive, s3, webdav, s3-ceph")
                    }
                    return provider
                }
                guard !providers.isEmpty else { throw BenchmarkFailure("--providers needs at least one provider") }
            default: throw BenchmarkFailure("unknown argument '\(argument)'")
            }
        }
    }
}
