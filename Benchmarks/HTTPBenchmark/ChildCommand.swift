import Foundation

/// The Swift clients measured in child processes of their own, so that each one's peak memory
/// is its own.
enum SwiftClient: String, CaseIterable, Sendable {
    case stratus
    case urlSession = "urlsession"
}

/// One workload, as a child process runs it.
enum ClientWorkload: Sendable {
    /// GET a large body into a file.
    case download(url: URL, destination: URL)
    /// PUT a file.
    case upload(url: URL, source: URL)
    /// `count` GETs of a small body, `concurrency` at a time, over one client.
    case gets(url: URL, count: Int, concurrency: Int)

    var name: String {
        switch self {
        case .download: "download"
        case .upload: "upload"
        case .gets: "gets"
        }
    }
}

/// A child subcommand: `stratus-download URL DEST`, `urlsession-upload URL FILE`,
/// `stratus-gets URL COUNT CONCURRENCY` and so on.
struct ChildCommand: Sendable {
    var client: SwiftClient
    var workload: ClientWorkload

    init(client: SwiftClient, workload: ClientWorkload) {
        self.client = client
        self.workload = workload
    }

    /// Recognises a child subcommand.
    /// - Returns: `nil` when the first argument names no subcommand (the benchmark itself runs).
    /// - Throws: ``BenchmarkOptions/ParseError`` when a subcommand has the wrong arguments.
    init?(arguments: [String]) throws(BenchmarkOptions.ParseError) {
        guard let name = arguments.first else { return nil }
        let parts = name.split(separator: "-", maxSplits: 1).map(String.init)
        guard parts.count == 2, let client = SwiftClient(rawValue: parts[0]) else { return nil }
        let values = Array(arguments.dropFirst())
        switch (parts[1], values.count) {
        case ("download", 2):
            workload = .download(url: try Self.url(values[0]), destination: URL(fileURLWithPath: values[1]))
        case ("upload", 2):
            workload = .upload(url: try Self.url(values[0]), source: URL(fileURLWithPath: values[1]))
        case ("gets", 3):
            guard let count = Int(values[1]), count > 0, let concurrency = Int(values[2]), concurrency > 0 else {
                throw BenchmarkOptions.ParseError(message: "\(name) needs a positive COUNT and CONCURRENCY")
            }
            workload = .gets(url: try Self.url(values[0]), count: count, concurrency: concurrency)
        default:
            throw BenchmarkOptions.ParseError(message: "unknown child command '\(name)' with \(values.count) arguments")
        }
        self.client = client
    }

    /// The arguments that make the executable run this command.
    var arguments: [String] {
        let name = "\(client.rawValue)-\(workload.name)"
        switch workload {
        case .download(let url, let destination): return [name, url.absoluteString, destination.path]
        case .upload(let url, let source): return [name, url.absoluteString, source.path]
        case .gets(let url, let count, let concurrency):
            return [name, url.absoluteString, String(count), String(concurrency)]
        }
    }

    private static func url(_ text: String) throws(BenchmarkOptions.ParseError) -> URL {
        guard let url = URL(string: text), url.scheme == "http" else {
            throw BenchmarkOptions.ParseError(message: "'\(text)' is not an http URL")
        }
        return url
    }
}
