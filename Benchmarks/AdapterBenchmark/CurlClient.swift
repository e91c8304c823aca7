import BenchmarkSupport
import Foundation

/// The curl tool moving the same bytes to and from the same server. The credentials are read
/// from a header file (`-H @file`), not given on the command line; `-q` (first) ignores any `.curlrc`.
///
/// With a ``HashCheck`` it becomes the same-guarantees peer: a download is piped through the
/// provider's hash (`curl | tee FILE | hasher`) and the file is flushed (`sync FILE`: fsync)
/// after; an upload hashes the source alongside (a second reader of the same file) and the hash
/// must match what the provider reports back. The benchmark then checks the hash against the
/// source's.
struct CurlClient {
    let processes: MeasuredProcess
    let endpoint: MockEndpoint
    let headerFile: URL
    let workspace: URL

    /// The provider's hash as a shell command reading standard input, and the value it must print.
    struct HashCheck {
        var command: String
        var expected: String
        /// What the table calls the peer ("curl | sha256sum + fsync").
        var title: String
    }

    private var common: [String] {
        ["-q", "--silent", "--show-error", "--fail", "--header", "@\(headerFile.path)"]
            + (endpoint.caFile.isEmpty ? [] : ["--cacert", endpoint.caFile])
    }

    /// One request from the file: `--upload-file` streams it (`--data-binary @file` would read
    /// it all into memory first); `-X POST` keeps the method the API wants (WebDAV: PUT).
    /// - Parameter remoteName: The name the upload gets (Drive ignores it).
    func upload(_ source: URL, remoteName: String, label: String, checking check: HashCheck? = nil) async -> Result<
        ProcessOutcome, BenchmarkFailure
    > {
        var arguments = ["--header", "Expect:", "--header", "Content-Type: application/octet-stream"]
        switch endpoint.provider {
        case .dropbox:
            arguments += [
                "--header", "Dropbox-API-Arg: {\"path\":\"/\(remoteName)\",\"mode\":\"overwrite\"}", "-X", "POST",
                "\(endpoint.baseURL)/2/files/upload",
            ]
        case .drive:
            arguments += [
                "-X", "POST", "\(endpoint.baseURL)/upload/drive/v3/files?uploadType=media&fields=id,md5Checksum",
            ]
        case .webdav:
            arguments += ["\(endpoint.baseURL)/\(remoteName)"]
        case .onedrive:
            // One simple upload into the app folder (`--upload-file` sends PUT).
            arguments += ["\(endpoint.baseURL)/v1.0/me/drive/special/approot:/\(remoteName):/content"]
        case .s3, .s3Ceph:
            return .failure(BenchmarkFailure("curl does not sign S3 requests here"))
        }
        guard let check else {
            return await run(
                "curl", common + arguments + ["--upload-file", source.path, "--output", "/dev/null"], label: label)
        }
        let hashOutput = workspace.appendingPathComponent("\(label).hash")
        let response = workspace.appendingPathComponent("\(label).response")
        defer {
            try? FileManager.default.removeItem(at: hashOutput)
            try? FileManager.default.removeItem(at: response)
        }
        let script = """
            set -euo pipefail
            source=$1 hash_output=$2 response=$3
            shift 3
            \(check.command) < "$source" > "$hash_output" &
            hasher=$!
            curl "$@" --upload-file "$source" --output "$response"
            wait "$hasher"
            """
        let outcome = await run(
            "bash", ["-c", script, "bash", source.path, hashOutput.path, response.path] + common + arguments,
            label: label)
        return outcome.flatMap { finished -> Result<ProcessOutcome, BenchmarkFailure> in
            let hash = Self.firstWord(hashOutput)
            guard hash == check.expected else {
                return .failure(BenchmarkFailure("the hasher printed \(hash), not \(check.expected)"))
            }
            let answer = (try? String(contentsOf: response, encoding: .utf8)) ?? ""
            // A base64 hash (QuickXorHash) may have its slashes escaped in JSON.
            let escaped = check.expected.replacingOccurrences(of: "/", with: "\\/")
            guard endpoint.provider == .webdav || answer.contains(check.expected) || answer.contains(escaped) else {
                return .failure(BenchmarkFailure("the provider's answer does not report hash \(check.expected)"))
            }
            return .success(finished)
        }
    }

    /// - Parameter target: Dropbox: the path; Drive and OneDrive: the file id; WebDAV: the name.
    func download(_ target: String, to destination: URL, label: String, checking check: HashCheck? = nil) async
        -> Result<ProcessOutcome, BenchmarkFailure>
    {
        let arguments: [String]
        switch endpoint.provider {
        case .dropbox:
            arguments = [
                "-X", "POST", "--header", "Dropbox-API-Arg: {\"path\":\"\(target)\"}",
                "\(endpoint.baseURL)/2/files/download",
            ]
        case .drive:
            arguments = ["\(endpoint.baseURL)/drive/v3/files/\(target)?alt=media"]
        case .webdav:
            arguments = ["\(endpoint.baseURL)/\(target)"]
        case .onedrive:
            return await downloadFollowingRedirect(target, to: destination, label: label, checking: check)
        case .s3, .s3Ceph:
            return .failure(BenchmarkFailure("curl does not sign S3 requests here"))
        }
        guard let check else {
            return await run("curl", common + ["--output", destination.path] + arguments, label: label)
        }
        let hashOutput = workspace.appendingPathComponent("\(label).hash")
        defer { try? FileManager.default.removeItem(at: hashOutput) }
        let script = """
            set -euo pipefail
            destination=$1 hash_output=$2
            shift 2
            curl "$@" --output - | tee "$destination" | \(check.command) > "$hash_output"
            sync "$destination"
            """
        let outcome = await run(
            "bash", ["-c", script, "bash", destination.path, hashOutput.path] + common + arguments, label: label)
        return outcome.flatMap { finished -> Result<ProcessOutcome, BenchmarkFailure> in
            let hash = Self.firstWord(hashOutput)
            guard hash == check.expected else {
                return .failure(BenchmarkFailure("the hasher printed \(hash), not \(check.expected)"))
            }
            return .success(finished)
        }
    }

    /// OneDrive: `GET /items/{id}/content` answers 302 to a pre-authenticated URL on another
    /// host, which refuses `Authorization`; curl with `--location` would send the header file's
    /// token there too, so one curl reads the `Location` (`%{redirect_url}`) with the token and a
    /// second fetches it without (as Stratus does, and the SDK's redirect handler).
    private func downloadFollowingRedirect(
        _ target: String, to destination: URL, label: String, checking check: HashCheck?
    ) async -> Result<ProcessOutcome, BenchmarkFailure> {
        let hashOutput = workspace.appendingPathComponent("\(label).hash")
        defer { try? FileManager.default.removeItem(at: hashOutput) }
        let fetch: String
        if let check {
            fetch = "--output - | tee \"$destination\" | \(check.command) > \"$hash_output\"\nsync \"$destination\""
        } else {
            fetch = "--output \"$destination\""
        }
        let script = """
            set -euo pipefail
            destination=$1 hash_output=$2 ca=$3 url=$4
            shift 4
            location=$(curl "$@" --output /dev/null --write-out '%{redirect_url}' "$url")
            [ -n "$location" ] || { echo "no redirect from $url" >&2; exit 1; }
            curl -q --silent --show-error --fail ${ca:+--cacert "$ca"} "$location" \(fetch)
            """
        let url = "\(endpoint.baseURL)/v1.0/me/drive/items/\(target)/content"
        let outcome = await run(
            "bash", ["-c", script, "bash", destination.path, hashOutput.path, endpoint.caFile, url] + common,
            label: label)
        guard let check else { return outcome }
        return outcome.flatMap { finished -> Result<ProcessOutcome, BenchmarkFailure> in
            let hash = Self.firstWord(hashOutput)
            guard hash == check.expected else {
                return .failure(BenchmarkFailure("the hasher printed \(hash), not \(check.expected)"))
            }
            return .success(finished)
        }
    }

    private static func firstWord(_ file: URL) -> String {
        ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(separator: " ").first.map {
            $0.trimmingCharacters(in: .whitespacesAndNewlines)
        } ?? ""
    }

    private func run(_ program: String, _ arguments: [String], label: String) async -> Result<
        ProcessOutcome, BenchmarkFailure
    > {
        do {
            return .success(
                try await processes.run(program, arguments, label: "\(endpoint.provider.rawValue)-curl-\(label)")
                    .checked("curl"))
        } catch {
            Progress.say("  curl \(label) failed: \(error)")
            return .failure(error as? BenchmarkFailure ?? BenchmarkFailure("\(error)"))
        }
    }
}

extension CurlClient {
    /// The raw curl upload (goal ≥ 0.9×) and, with a check, the same-guarantees one (goal ≥ 1×).
    func uploadPeers(_ source: URL, bytes: Int64, remoteName: String, check: HashCheck?, label: String) async
        -> [PeerResult]
    {
        var peers = [
            PeerResult(
                name: "curl",
                result: Figures.rate(await upload(source, remoteName: remoteName, label: label), bytes: bytes),
                ratioGoal: 0.9)
        ]
        if let check {
            let outcome = await upload(
                source, remoteName: "hashed-" + remoteName, label: label + "-hashed", checking: check)
            peers.append(PeerResult(name: check.title, result: Figures.rate(outcome, bytes: bytes), ratioGoal: 1))
        }
        return peers
    }

    /// The raw curl download and, with a check, the same-guarantees one (goal ≥ 1×); each is
    /// checked by size and removed.
    func downloadPeers(_ target: String, to destination: URL, bytes: Int64, check: HashCheck?, label: String) async
        -> [PeerResult]
    {
        let raw = Figures.checkedSize(
            await download(target, to: destination, label: label), file: destination, expected: bytes)
        var peers = [PeerResult(name: "curl", result: Figures.rate(raw, bytes: bytes), ratioGoal: nil)]
        if let check {
            let hashed = Figures.checkedSize(
                await download(target, to: destination, label: label + "-hashed", checking: check),
                file: destination, expected: bytes)
            peers.append(PeerResult(name: check.title, result: Figures.rate(hashed, bytes: bytes), ratioGoal: 1))
        }
        return peers
    }
}
