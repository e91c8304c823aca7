import Foundation

/// The child side: runs one workload with one Swift client and prints its report.
enum ChildMain {
    static func run(_ command: ChildCommand) async throws {
        let client: any WorkloadClient =
            switch command.client {
            case .stratus: StratusWorkloads()
            case .urlSession: URLSessionWorkloads()
            }
        let report =
            switch command.workload {
            case .download(let url, let destination): try await client.download(from: url, to: destination)
            case .upload(let url, let source): try await client.upload(source, to: url)
            case .gets(let url, let count, let concurrency):
                try await client.get(url, count: count, concurrency: concurrency)
            }
        print(report.render())
    }
}
