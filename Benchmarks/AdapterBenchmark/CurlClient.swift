import Foundation

/// The curl tool moving the same bytes to and from the same mock. The bearer token is read from
/// a header file (`-H @file`), not given on the command line; `-q` (first) ignores any `.curlrc`.
struct CurlClient {
    let processes: MeasuredProcess
    let endpoint: MockEndpoint
    let headerFile: URL

    private var common: [String] {
        ["-q", "--silent", "--show-error", "--fail", "--header", "@\(headerFile.path)"]
            + (endpoint.caFile.isEmpty ? [] : ["--cacert", endpoint.caFile])
    }

    /// One request from the file: `--upload-file` streams it (`--data-binary @file` would read
    /// it all into memory first); `-X POST` keeps the method the API wants.
    func upload(_ source: URL, label: String) async -> Result<ProcessOutcome, BenchmarkFailure> {
        let url: String
        var headers = ["--header", "Expect:", "--header", "Content-Type: application/octet-stream"]
        switch endpoint.provider {
        case .dropbox:
            url = "\(endpoint.baseURL)/2/files/upload"
            headers += ["--header", "Dropbox-API-Arg: {\"path\":\"/curl-\(label).bin\",\"mode\":\"overwrite\"}"]
        case .drive:
            url = "\(endpoint.baseURL)/upload/drive/v3/files?uploadType=media"
        }
        return await run(
            common + headers + ["-X", "POST", "--upload-file", source.path, "--output", "/dev/null", url], label: label)
    }

    /// - Parameter target: Dropbox: the path; Drive: the file id.
    func download(_ target: String, to destination: URL, label: String) async -> Result<
        ProcessOutcome, BenchmarkFailure
    > {
        let arguments: [String] =
            switch endpoint.provider {
            case .dropbox:
                [
                    "-X", "POST", "--header", "Dropbox-API-Arg: {\"path\":\"\(target)\"}",
                    "\(endpoint.baseURL)/2/files/download",
                ]
            case .drive:
                ["\(endpoint.baseURL)/drive/v3/files/\(target)?alt=media"]
            }
        return await run(common + ["--output", destination.path] + arguments, label: label)
    }

    private func run(_ arguments: [String], label: String) async -> Result<ProcessOutcome, BenchmarkFailure> {
        do {
            return .success(
                try await processes.run("curl", arguments, label: "\(endpoint.provider.rawValue)-curl-\(label)")
                    .checked("curl"))
        } catch {
            Progress.say("  curl \(label) failed: \(error)")
            return .failure(error as? BenchmarkFailure ?? BenchmarkFailure("\(error)"))
        }
    }
}
