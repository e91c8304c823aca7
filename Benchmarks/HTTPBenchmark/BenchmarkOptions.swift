/// What the benchmark does, from its command line.
struct BenchmarkOptions {
    /// The size of the downloaded and uploaded body, in MiB.
    var sizeMiB = 1024
    /// How many small GETs each tool makes.
    var requests = 2000
    /// How many small GETs are in flight at once.
    var concurrency = 32
    /// How many times every measurement is repeated; the best throughput counts.
    var rounds = 3
    var showHelp = false

    /// The size of the body of each small GET.
    static let smallBodyBytes = 1024

    var sizeBytes: Int64 { Int64(sizeMiB) * 1_048_576 }

    struct ParseError: Error {
        var message: String
    }

    static let usage = """
        usage: stratus-http-benchmark [--size-mib N] [--requests N] [--concurrency N] [--rounds N]

        Starts a loopback HTTP server and measures StratusHTTP, the curl tool and URLSession
        (FoundationNetworking) on it: a download and an upload of --size-mib MiB (default 1024),
        and --requests GETs of \(smallBodyBytes) bytes (default 2000) with --concurrency in flight
        (default 32). Every measurement runs --rounds times (default 3) and the best throughput
        counts. The report goes to standard output, progress to standard error.
        Quick smoke run: --size-mib 64 --requests 200 --rounds 1
        """

    init(arguments: [String]) throws(ParseError) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "-h", "--help":
                showHelp = true
            case "--size-mib":
                sizeMiB = try Self.positiveInteger(after: argument, in: &remaining)
            case "--requests":
                requests = try Self.positiveInteger(after: argument, in: &remaining)
            case "--concurrency":
                concurrency = try Self.positiveInteger(after: argument, in: &remaining)
            case "--rounds":
                rounds = try Self.positiveInteger(after: argument, in: &remaining)
            default:
                throw ParseError(message: "unknown argument '\(argument)'")
            }
        }
    }

    private static func positiveInteger(after option: String, in remaining: inout ArraySlice<String>) throws(ParseError)
        -> Int
    {
        guard let text = remaining.popFirst() else {
            throw ParseError(message: "\(option) needs a value")
        }
        guard let value = Int(text), value > 0 else {
            throw ParseError(message: "\(option) needs a positive whole number, not '\(text)'")
        }
        return value
    }
}
