import Foundation
import Stratus

extension ContractSuite {
    /// Uploads of boundary sizes, from a file and from bytes, downloaded and compared byte for
    /// byte and by hash.
    static var roundTripChecks: [ContractCheck.Definition] {
        [
            roundTrip("0 bytes") { _ in (0, false) },
            roundTrip("1 byte") { _ in (1, false) },
            roundTrip("chunkSize-1 bytes") { $0.chunkSize.subtractingReportingOverflow(1) },
            roundTrip("chunkSize bytes") { ($0.chunkSize, false) },
            roundTrip("2×chunkSize+1 bytes") { capabilities in
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
    ///   - size: The size from the capabilities, and whether computing it overflowed.
    private static func roundTrip(
        _ label: String,
        size: @escaping @Sendable (ServiceCapabilities) -> (partialValue: Int64, overflow: Bool)
    ) -> ContractCheck.Definition {
        ContractCheck.Definition("round trip: \(label)") { run in
            let (size, overflow) = size(run.capabilities)
            guard !overflow, size >= 0 else {
                throw run.skip("\(label) is not a byte count for these capabilities (chunkSize \(run.capabilities.chunkSize), largestSingleUpload \(run.capabilities.largestSingleUpload))")
            }
            guard size <= run.options.largestRoundTrip else {
                throw run.skip("\(label) is \(size) bytes, above ContractSuite.Options.largestRoundTrip (\(run.options.largestRoundTrip)); raise it or configure the adapter with smaller limits to run this check")
            }
            let local = try run.makeContent("round-trip-\(size)", size: size)
            let expectedHash = try run.hash(of: local)

            let fromFile = try run.path("round-trip/from-file.bin")
            let uploaded = try await run.upload(.file(local), to: fromFile)
            try run.expectDescribes(uploaded, size: size, hash: expectedHash, "upload(from: .file) of \(size) bytes, result")
            try await expectRoundTrip(fromFile, of: local, size: size, hash: expectedHash, version: uploaded.version, run)

            let fromBytes = try run.path("round-trip/from-bytes.bin")
            let bytes = try LocalFiles.contents(of: local)
            let uploadedBytes = try await run.upload(.bytes(bytes), to: fromBytes)
            try run.expectDescribes(uploadedBytes, size: size, hash: expectedHash, "upload(from: .bytes) of \(size) bytes, result")
            try await expectRoundTrip(fromBytes, of: local, size: size, hash: expectedHash, version: uploadedBytes.version, run)
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
