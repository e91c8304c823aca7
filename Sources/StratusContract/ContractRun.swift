import Foundation
import Stratus
import StratusDigest

/// What a check body works with: the service, its scratch space, and helpers whose failures
/// say what was expected and what came back.
struct ContractRun: Sendable {
    /// The service under test.
    let service: any Service
    /// The context the factory received.
    let context: ContractContext
    /// The suite's own folder for local files (sources and download destinations).
    let localFolder: URL
    /// The suite's options.
    let options: ContractSuite.Options
    /// Makes a second instance of the same service, on the same namespace.
    let reopen: @Sendable () async throws -> any Service

    /// The service's capabilities.
    var capabilities: ServiceCapabilities { service.capabilities }

    // MARK: Skipping

    /// Ends the check as skipped.
    /// - Parameter reason: Which capability says the feature is absent.
    func skip(_ reason: String) -> ContractSkip {
        ContractSkip(reason: reason)
    }

    /// Skips the check when the service keeps no versions.
    func requireVersions() throws {
        if !capabilities.supportsVersions {
            throw skip("capabilities.supportsVersions is false")
        }
    }

    /// Skips the check when the service has no change feed.
    func requireChangeFeed() throws {
        if capabilities.changeFeed == .unavailable {
            throw skip("capabilities.changeFeed is .unavailable")
        }
    }

    /// Skips the check when the service has no change feed or declares no way to wait on it.
    /// - Returns: How the service declares it waits.
    @discardableResult
    func requireChangeWaiting() throws -> ChangeWaiting {
        try requireChangeFeed()
        let waiting = capabilities.changeWaiting
        if waiting.mechanism == .unavailable {
            throw skip("capabilities.changeWaiting.mechanism is .unavailable")
        }
        return waiting
    }

    /// The largest content the service accepts in one upload: `Int64.max` when it sends large
    /// uploads in chunks, ``ServiceCapabilities/largestSingleUpload`` when it has no chunked
    /// upload.
    var largestUpload: Int64 {
        capabilities.supportsChunkedUpload ? .max : capabilities.largestSingleUpload
    }

    /// Skips the check when the service sends every upload in one request.
    func requireChunkedUpload() throws {
        if !capabilities.supportsChunkedUpload {
            throw skip("capabilities.supportsChunkedUpload is false, so uploads have no chunks")
        }
    }

    /// Skips the check when the service refuses preconditions.
    func requirePreconditions() throws {
        if capabilities.conditionalWrites == .unsupported {
            throw skip("capabilities.conditionalWrites is .unsupported")
        }
    }

    // MARK: Paths and local content

    /// Parses a path the check uses.
    func path(_ string: String) throws -> RemotePath {
        do {
            return try RemotePath(string)
        } catch {
            throw failure("the check's own path \(string.debugDescription) was refused: \(error)")
        }
    }

    /// A local file name in the suite's folder (the file is not created).
    func localFile(_ name: String) -> URL {
        localFolder.appending(path: name, directoryHint: .notDirectory)
    }

    /// A new local folder in the suite's folder.
    func makeLocalFolder(_ name: String) throws -> URL {
        let url = localFolder.appending(path: name, directoryHint: .isDirectory)
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw failure("could not create the local folder \(url.path): \(error)")
        }
        return url
    }

    /// Writes deterministic content to a new local file named after its seed.
    func makeContent(_ seed: String, size: Int64) throws -> URL {
        let url = localFile("content-" + seed.filter { $0.isLetter || $0.isNumber || $0 == "-" })
        do {
            try SampleContent.write(count: size, seed: seed, to: url)
        } catch {
            throw failure("could not write \(size) bytes of test content to \(url.path): \(error)")
        }
        return url
    }

    /// The hash of a local file under the service's algorithm.
    func hash(of url: URL) throws -> String {
        try LocalFiles.hash(of: url, capabilities.hashAlgorithm)
    }

    /// The hash of bytes under the service's algorithm.
    /// - Throws: ``ExpectationFailure`` when `StratusDigest` cannot compute the algorithm.
    func hash(of data: Data) throws -> String {
        do {
            return Hex.encode(try Digest.compute(capabilities.hashAlgorithm, over: data))
        } catch {
            throw failure("the service's hash algorithm cannot be checked: \(error)")
        }
    }

    // MARK: Calls with context

    /// Uploads, turning an unexpected error into a failure that names the call.
    func upload(_ source: UploadSource, to path: RemotePath, options: UploadOptions = UploadOptions()) async throws
        -> RemoteFile
    {
        do {
            return try await service.upload(from: source, to: path, options: options)
        } catch {
            throw failure("upload to \(path) threw \(error)")
        }
    }

    /// Downloads a file to a new local file and checks the content against the hash the
    /// service reports with it.
    /// - Returns: The local file and the description the download returned.
    func download(_ path: RemotePath, version: VersionID? = nil, options: DownloadOptions = DownloadOptions())
        async throws -> (url: URL, file: RemoteFile)
    {
        let url = localFile("download-" + UUID().uuidString)
        let file: RemoteFile
        do {
            file = try await service.download(path, version: version, to: url, options: options)
        } catch {
            throw failure("download of \(path)\(version.map { " at version \($0)" } ?? "") threw \(error)")
        }
        try expectIntact(url, file, "download of \(path)")
        return (url, file)
    }

    /// Checks a downloaded file against the description returned with it: size and hash.
    func expectIntact(_ url: URL, _ file: RemoteFile, _ what: String) throws {
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value
        try expectEqual(size, file.size, "\(what): size of the local file compared with the size reported")
        guard let reported = file.contentHash else {
            throw failure(
                "\(what) reported no content hash; every transfer must be checkable with capabilities.hashAlgorithm (\(capabilities.hashAlgorithm))"
            )
        }
        try expectEqual(reported.algorithm, capabilities.hashAlgorithm, "\(what): algorithm of the reported hash")
        try expectEqual(
            reported.value, try hash(of: url), "\(what): reported hash compared with the hash of the bytes received")
    }

    /// Checks that a description is of given content.
    func expectDescribes(_ file: RemoteFile, size: Int64, hash: String, _ what: String) throws {
        try expectEqual(file.size, size, "\(what): size")
        guard let reported = file.contentHash else {
            throw failure("\(what) has no content hash; expected \(capabilities.hashAlgorithm) \(hash)")
        }
        try expectEqual(reported.algorithm, capabilities.hashAlgorithm, "\(what): hash algorithm")
        try expectEqual(reported.value, hash, "\(what): content hash")
    }

    /// Checks that two local files hold the same bytes.
    func expectSameContent(_ actual: URL, _ expected: URL, _ what: String) throws {
        if let offset = try LocalFiles.firstDifference(actual, expected) {
            throw failure("\(what) differs from the content written, first at byte \(offset)")
        }
    }

    /// Checks that a remote file's current content is some bytes, by downloading it.
    func expectContent(of path: RemotePath, _ expected: Data, _ what: String) async throws {
        let (url, _) = try await download(path)
        let actual = try LocalFiles.contents(of: url)
        if actual != expected {
            throw failure(
                "\(what): \(path) holds \(actual.count) bytes (\(preview(actual))), expected \(expected.count) bytes (\(preview(expected)))"
            )
        }
    }

    /// Runs a call that must fail with a given code.
    /// - Parameters:
    ///   - code: The expected code.
    ///   - what: The call, for messages, such as `"metadata(of: missing.txt)"`.
    ///   - call: The call.
    /// - Returns: The error.
    @discardableResult
    func expectError<Value>(_ code: ServiceError.Code, _ what: String, _ call: () async throws -> Value) async throws
        -> ServiceError
    {
        let value: Value
        do {
            value = try await call()
        } catch let error as ServiceError {
            guard error.code == code else {
                throw failure("\(what) should throw \(code), but threw \(error)")
            }
            return error
        } catch {
            throw failure("\(what) should throw ServiceError(\(code)), but threw a \(type(of: error)): \(error)")
        }
        throw failure("\(what) should throw \(code), but returned \(value)")
    }

    /// Reads the change feed from a token until it has no more, following every page.
    /// - Returns: The changes, the last token, and how many pages were read.
    func allChanges(since token: ChangeToken, from service: (any Service)? = nil) async throws -> (
        changes: [Change], token: ChangeToken, pages: Int
    ) {
        let service = service ?? self.service
        var changes: [Change] = []
        var token = token
        var pages = 0
        while true {
            let page: ChangePage
            do {
                page = try await service.changes(since: token)
            } catch {
                throw failure("changes(since:) threw \(error) on page \(pages + 1)")
            }
            pages += 1
            changes += page.changes
            token = page.nextToken
            if !page.hasMore { return (changes, token, pages) }
            if pages >= 100_000 {
                throw failure("changes(since:) still reports hasMore after 100000 pages")
            }
        }
    }

    /// The latest change token, with context on failure.
    func latestChangeToken() async throws -> ChangeToken {
        do {
            return try await service.latestChangeToken()
        } catch {
            throw failure("latestChangeToken() threw \(error)")
        }
    }

    /// A short, printable view of some bytes.
    func preview(_ data: Data) -> String {
        if let text = String(data: data.prefix(40), encoding: .utf8), text.allSatisfy({ !$0.isNewline }) {
            return (text + (data.count > 40 ? "…" : "")).debugDescription
        }
        return "sha256 \(Hex.encode(Digest.sha256(data)).prefix(12))"
    }
}

/// A name with its non-ASCII scalars spelled out, so NFC and NFD forms read differently.
func spelledOut(_ name: String) -> String {
    name.unicodeScalars.map { $0.isASCII ? String($0) : "\\u{\(String($0.value, radix: 16, uppercase: true))}" }
        .joined()
}

/// Whether two names have the same Unicode scalars (Swift's `==` treats NFC and NFD as equal).
func sameScalars(_ first: String, _ second: String) -> Bool {
    first.unicodeScalars.elementsEqual(second.unicodeScalars)
}
