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
    var showHelp = false

    var sizeBytes: Int64 { Int64(sizeMiB) * 1_048_576 }

    static let usage = """
        usage: stratus-adapter-benchmark [--size-mib N] [--files N] [--concurrency N] [--sdk-threads N]
                                         [--feed-entries N] [--mock PATH] [--dropbox-python PATH] [--drive-python PATH]

        Starts stratus-mock dropbox and drive (HTTPS, each in a process of its own) and measures, against each:
        a download and an upload of --size-mib MiB (default 1024) with Stratus and with the curl tool;
        --files uploads of 4 KiB (default 1000) with Stratus (--concurrency at once, default 16) and with the
        official Python SDK (--sdk-threads, default 1: sequential); reading a change feed of --feed-entries
        (default 100000) with Stratus and with the SDK; and the mock's own capacity. One Markdown table goes to
        standard output, progress to standard error.
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
            default: throw BenchmarkFailure("unknown argument '\(argument)'")
            }
        }
    }
}
