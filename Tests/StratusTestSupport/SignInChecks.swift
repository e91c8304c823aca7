import Foundation
import Stratus
import Testing

/// Checks that a service signed in through a credential provider refreshes an expired access
/// token once and repeats the call: uploads `refresh/a.txt`, expires every access token, and
/// reads the file's metadata, which must name the version written after one refresh.
/// - Parameters:
///   - service: The service, signed in through a credential provider.
///   - expireAccessTokens: Makes the authorization server refuse every access token it issued.
///   - refreshCount: How many times the credential provider has refreshed.
/// - Returns: The uploaded file's path, for further checks.
@discardableResult
public func expectOneRefreshAfterTokensExpire(
    _ service: any Service, expireAccessTokens: () -> Void, refreshCount: () async -> Int
) async throws -> RemotePath {
    let path = try RemotePath("refresh/a.txt")
    let written = try await service.upload(from: .bytes(Data("a".utf8)), to: path)
    expireAccessTokens()
    let read = try await service.metadata(of: path)
    #expect(read.version == written.version)
    #expect(await refreshCount() == 1)
    return path
}

/// Checks that a service whose fixed access token the provider stopped accepting fails as
/// unauthorized without showing the token: expires every access token and lists the root.
/// - Parameters:
///   - service: The service, with a fixed access token.
///   - token: That token.
///   - expireAccessTokens: Makes the authorization server refuse every access token it issued.
/// - Returns: The error, for further checks.
@discardableResult
public func expectFixedTokenRefused(_ service: any Service, token: String, expireAccessTokens: () -> Void) async
    -> ServiceError?
{
    expireAccessTokens()
    let error = await expectServiceError(.unauthorized) { try await service.list(.root) }
    #expect(error?.description.contains(token) == false)
    return error
}

/// Checks the service a registry builds from remote options naming a chunk size, a
/// single-upload limit of 1,024 bytes and pages of 2: its capabilities carry both, and five
/// files of 2,000 bytes each, uploaded in chunks under `d/`, list back whole over several pages.
/// - Parameters:
///   - backend: The provider's backend.
///   - typeName: Its type name.
///   - accessToken: A fixed access token.
///   - apiURL: The API's URL.
///   - chunkSize: The chunk size to name.
///   - values: The provider's other options, such as its root folder.
/// - Returns: The service, for checks of the requests it sent.
@discardableResult
public func expectWorkingServiceFromOptions(
    _ backend: any ServiceBackend.Type, typeName: String, accessToken: String, apiURL: URL, chunkSize: Int64,
    values: [String: String]
) async throws -> any Service {
    let common = [
        "access_token": accessToken, "api_url": apiURL.absoluteString, "chunk_size": String(chunkSize),
        "single_upload_limit": "1024", "page_size": "2",
    ]
    let options = RemoteOptions(
        remoteName: typeName, typeName: typeName, values: values.merging(common) { provider, _ in provider })
    let service = try ServiceRegistry(backends: [backend]).makeService(options: options)
    #expect(service.capabilities.chunkSize == chunkSize)
    #expect(service.capabilities.largestSingleUpload == 1024)
    for index in 0..<5 {
        _ = try await service.upload(
            from: .bytes(Data(repeating: UInt8(index), count: 2000)), to: try RemotePath("d/f\(index).bin"))
    }
    let listed = try await service.list(.root)
    #expect(listed.count == 5)
    #expect(listed.allSatisfy { $0.size == 2000 })
    return service
}
