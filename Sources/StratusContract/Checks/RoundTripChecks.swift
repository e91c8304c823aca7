import Foundation
import Stratus

extension ContractSuite {
    /// Uploads of boundary sizes, from a file and from bytes, downloaded and compared byte for
    /// byte and by hash.
    static var roundTripChecks: [ContractCheck.Definition] {
        [
            roundTrip("0 bytes") { _ in (0, false) },
            roundTrip("1 byte") { _ in (1, false) },
            roundTrip("chunkSize-1 bytes", chunked: true) { $0.chunkSize.subtractingReportingOverflow(1) },
            roundTrip("chunkSize bytes", chunked: true) { ($0.chunkSize, false) },
            roundTrip("2×chunkSize+1 bytes", chunked: true) { capabilities in
                let (double, overflow) = capabilities.chunkSize.multipliedReportingOverflow(by: 2)
                let (size, overflowAgain) = double.addingReportingOverflow(1)
                return (size, overflow || overflowAgain)
            },
            roundTrip("largestSingleUpload-1 bytes") { $0.largestSingleUpload.subtractingReportingOverflow(1) },
            roundTrip("largestSingleUpload bytes") { ($0.largestSingleUpload, false) },
            roundTrip("largestSingleUpload+1 bytes") { $0.largestSingleUpload.addingReportingOverflow(1) },
        ]
    }

    /// One round-trip check.
    /// - Parameters:
    ///   - label: The size in words, after "round trip: ".
    ///   - chunked: Whether the size is a chunk boundary, skipped for a service without chunked
    ///     upload.
    ///   - size: The size from the capabilities, and whether computing it overflowed.
    private static func roundTrip(
        _ label: String,
        chunked: Bool = false,
        size: @escaping @Sendable (ServiceCapabilities) -> (partialValue: Int64, overflow: Bool)
    ) -> ContractCheck.Definition {
        ContractCheck.Definition("round trip: \(label)") { run in
            if chunked {
                try run.requireChunkedUpload()
            }
            let (size, overflow) = size(run.capabilities)
            guard !overflow, size >= 0 else {
                throw run.skip(
                    "\(label) is not a byte count for these capabilities (chunkSize \(run.capabilities.chunkSize), largestSingleUpload \(run.capabilities.largestSingleUpload))"
                )
            }
            guard size <= run.options.largestRoundTrip else {
                throw run.skip(
                    "\(label) is \(size) bytes, above ContractSuite.Options.largestRoundTrip (\(run.options.largestRoundTrip)); raise it or configure the adapter with smaller limits to run this check"
                )
            }
            if size > run.largestUpload {
                try await expectRefusedAsTooLarge(size: size, label: label, run)
                return
            }
            let local = try run.makeContent("round-trip-\(size)", size: size)
            let expectedHash = try run.hash(of: local)

            let fromFile = try run.path("round-trip/from-file.bin")
            let uploaded = try await run.upload(.file(local), to: fromFile)
            try run.expectDescribes(
                uploaded, size: size, hash: expectedHash, "upload(from: .file) of \(size) bytes, result")
            try await expectRoundTrip(
                fromFile, of: local, size: size, hash: expectedHash, version: uploaded.version, run)

            let fromBytes = try run.path("round-trip/from-bytes.bin")
            let bytes = try LocalFiles.contents(of: local)
            let uploadedBytes = try await run.upload(.bytes(bytes), to: fromBytes)
            try run.expectDescribes(
                uploadedBytes, size: size, hash: expectedHash, "upload(from: .bytes) of \(size) bytes, result")
            try await expectRoundTrip(
                fromBytes, of: local, size: size, hash: expectedHash, version: uploadedBytes.version, run)
        }
    }

    /// Checks that a service without chunked upload refuses content above its single-upload
    /// limit, from a file and from bytes, and leaves nothing at the path.
    private static func expectRefusedAsTooLarge(size: Int64, label: String, _ run: ContractRun) async throws {
        let local = try run.makeContent("too-large-\(size)", size: size)
        let path = try run.path("round-trip/too-large.bin")
        let limit = run.capabilities.largestSingleUpload
        try await run.expectError(
            .payloadTooLarge,
            "upload(from: .file) of \(label) (\(size) bytes; supportsChunkedUpload is false and largestSingleUpload is \(limit))"
        ) {
            try await run.service.upload(from: .file(local), to: path, options: UploadOptions())
        }
        let bytes = try LocalFiles.contents(of: local)
        try await run.expectError(
            .payloadTooLarge,
            "upload(from: .bytes) of \(label) (\(size) bytes; supportsChunkedUpload is false and largestSingleUpload is \(limit))"
        ) {
            try await run.service.upload(from: .bytes(bytes), to: path, options: UploadOptions())
        }
        try await run.expectError(.notFound, "metadata(of: \(path)) after the refused uploads") {
            try await run.service.metadata(of: path)
        }
    }

    /// Checks what metadata(of:) and a download say about a file just uploaded.
    private static func expectRoundTrip(
        _ path: RemotePath, of local: URL, size: Int64, hash: String, version: VersionID, _ run: ContractRun
    ) async throws {
        let described = try await run.service.metadata(of: path)
        try run.expectDescribes(described, size: size, hash: hash, "metadata(of: \(path)) after the upload")
        try expectEqual(described.version, version, "version from metadata(of: \(path)) compared with the upload's")
        let (downloaded, file) = try await run.download(path)
        try run.expectDescribes(file, size: size, hash: hash, "download of \(path), result")
        try run.expectSameContent(downloaded, local, "the content downloaded from \(path)")
    }
}
