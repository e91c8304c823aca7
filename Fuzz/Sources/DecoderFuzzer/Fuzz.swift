import Foundation
import Hummingbird
import NIOCore
import Stratus
import StratusAdapterKit

@testable import MockDrive
@testable import MockDropbox
@testable import MockSupport
@testable import StratusDrive
@testable import StratusDropbox
@testable import StratusHTTP
@testable import StratusOAuth
@testable import StratusS3

/// libFuzzer's callback. With `STRATUS_FUZZ_TARGET` set, every input goes to that decoder;
/// otherwise the first byte picks one and the rest is its input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let data, count > 0 else { return 0 }
    let bytes = UnsafeBufferPointer(start: data, count: count)
    if let target = FuzzTarget.chosen {
        target.run(Data(bytes))
    } else {
        FuzzTarget.allCases[Int(bytes[0]) % FuzzTarget.allCases.count].run(Data(bytes.dropFirst()))
    }
    return 0
}

/// The decoders of server answers (adapters) and of client requests (mocks).
enum FuzzTarget: String, CaseIterable {
    case dropboxErrorBody, dropboxMetadata, dropboxResultHeader, dropboxChangeToken, dropboxMockArguments
    case driveJSON, driveErrorBody, driveRangeHeader, driveChangeToken, driveMockRange, driveMockMultipart
    case s3XML, s3ChangeToken
    case contentRange
    case oauthTokenAnswer, serverText, mockControlHost, mockRouteGlob

    /// The target named by `STRATUS_FUZZ_TARGET`, if any.
    static let chosen: FuzzTarget? = ProcessInfo.processInfo.environment["STRATUS_FUZZ_TARGET"].flatMap(FuzzTarget.init)

    func run(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        switch self {
        case .dropboxErrorBody:
            _ = StoneErrorBody.parse(data)
        case .dropboxMetadata:
            if let page = try? DropboxTransport.decode(DropboxListFolderResult.self, from: data, route: "fuzz") {
                for entry in page.entries {
                    _ = try? Services.dropbox.file(from: entry, route: "fuzz", requested: nil)
                }
            }
        case .dropboxResultHeader:
            if let entry = try? DropboxTransport.decode(DropboxMetadata.self, from: Data(text.utf8), route: "fuzz") {
                _ = try? Services.dropbox.file(from: entry, route: "fuzz", requested: try? RemotePath("a/b"))
            }
        case .dropboxChangeToken:
            _ = try? DropboxChangeCursor(ChangeToken(rawValue: text))
        case .dropboxMockArguments:
            _ = try? DropboxArguments(json: data, route: "fuzz", source: "fuzz")
        case .driveJSON:
            let decoder = JSONDecoder()
            _ = try? decoder.decode(DriveFile.self, from: data)
            _ = try? decoder.decode(DriveFileList.self, from: data)
            _ = try? decoder.decode(DriveChangeList.self, from: data)
            _ = DriveJSON.parseDate(text)
        case .driveErrorBody:
            _ = DriveErrorBody.parse(data)
        case .driveRangeHeader:
            _ = DriveResumableUpload.receivedBytes(text, size: 1 << 20)
            _ = DriveResumableUpload.receivedBytes(text, size: Int64.max)
        case .driveChangeToken:
            _ = try? DriveChangeCursor(ChangeToken(rawValue: text))
        case .driveMockRange:
            _ = ByteRangeHeader.range(text, size: 1 << 20)
        case .driveMockMultipart:
            Self.readMultipart(data)
        case .s3XML:
            _ = try? XMLTree.parse(data)
            _ = S3ErrorMapping.error(status: 400, body: data, action: "fuzz", secrets: ["fuzz-secret"])
        case .s3ChangeToken:
            _ = try? S3ChangeCursor(ChangeToken(rawValue: text), remote: "fuzz")
        case .contentRange:
            _ = ResumableFileSink.contentRange(text)
        case .oauthTokenAnswer:
            _ = try? TokenEndpointAnswer.token(
                from: data, issuedAt: Date(timeIntervalSince1970: 1_700_000_000), previous: nil, requestedScopes: [])
            _ = ServiceError.tokenEndpoint(
                status: 400, headers: [:], body: data, grant: .refreshToken, provider: "Fuzz", signInHint: "",
                secrets: ["fuzz-secret"]
            )
        case .serverText:
            let cleaned = Redaction.serverText(text, secrets: ["fuzz-secret"], limit: 300)
            // The scrubbed text never carries the secret, a control character or more than the limit.
            if cleaned.contains("fuzz-secret")
                || cleaned.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
                || cleaned.count > 301
            {
                fatalError("serverText let something through")
            }
        case .mockControlHost:
            _ = FaultControlRoutes.isLocalAuthority(text)
        case .mockRouteGlob:
            // The first line is the pattern, the rest the path.
            let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
            _ = FaultRule.glob(Array((parts.first ?? "").utf8), matches: Array((parts.count > 1 ? parts[1] : "").utf8))
        }
    }

    /// Runs the mock's multipart/related reader over the input, limits as the mock sets them.
    private static func readMultipart(_ data: Data) {
        let file = FileManager.default.temporaryDirectory.appending(path: "stratus-fuzz-multipart-\(getpid())")
        FileManager.default.createFile(atPath: file.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: file) }
        let body = RequestBody(buffer: ByteBuffer(bytes: data))
        let done = DispatchSemaphore(value: 0)
        Task {
            _ = try? await MultipartRelated.read(
                body, boundary: "fuzz_boundary", into: file, metadataLimit: 64 * 1024, mediaLimit: 1 << 20)
            done.signal()
        }
        done.wait()
    }
}

/// Services whose decoding helpers need an instance.
enum Services {
    static let dropbox: DropboxService = {
        guard let url = URL(string: "http://127.0.0.1:9"),
            let configuration = try? DropboxConfiguration(apiURL: url, contentURL: url, notifyURL: url, root: "/root"),
            let service = try? DropboxService(configuration: configuration, credentials: .accessToken("fuzz"))
        else { fatalError("the fuzz harness could not make its Dropbox service") }
        return service
    }()
}
