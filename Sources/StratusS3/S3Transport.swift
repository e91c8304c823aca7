import Foundation
import Stratus
import StratusAdapterKit
import StratusDigest
import StratusHTTP

/// Builds, signs and sends S3 requests, with retries and error mapping.
struct S3Transport: Sendable {
    /// One request before it is signed.
    struct Request: Sendable {
        var method: StratusHTTPMethod
        /// The whole object key, root prefix included; `nil` for a bucket request.
        var key: String?
        var query: [(String, String)] = []
        var headers: [(String, String)] = []
        var body: HTTPRequestBody = .empty
        /// The hex SHA-256 of the body.
        var payloadHash: String = SigV4Signer.emptyPayloadHash
        /// What the request does, for messages.
        var action: String
    }

    let http: StratusHTTPClient
    let signer: SigV4Signer
    let configuration: S3Configuration
    /// The requests sent, while a test records them.
    let requestLog = S3RequestLog()

    /// The secret key and session token, which server text never carries into a message.
    var secrets: [String] {
        [signer.credentials.secretAccessKey, signer.credentials.sessionToken].compactMap { $0 }
    }

    /// The signed HTTP request for a request, as of now.
    func signed(_ request: Request, responseDigests: Set<HashAlgorithm> = []) throws -> StratusHTTPRequest {
        let endpoint = configuration.endpoint
        guard let scheme = endpoint.scheme, let baseHost = endpoint.host else {
            throw ServiceError(.invalidConfiguration, "The S3 endpoint has no host.")
        }
        var host = baseHost
        var path = endpoint.path.hasSuffix("/") ? String(endpoint.path.dropLast()) : endpoint.path
        switch configuration.addressing {
        case .path: path += "/" + configuration.bucket
        case .virtualHosted: host = configuration.bucket + "." + host
        }
        if let key = request.key {
            path += "/" + SigV4Signer.uriEncode(key, keepSlash: true)
        } else if path.isEmpty {
            path = "/"
        }
        let hostHeader = endpoint.port.map { "\(host):\($0)" } ?? host
        let query = request.query.map { name, value in
            let encodedName = SigV4Signer.uriEncode(name, keepSlash: false)
            return value.isEmpty ? encodedName : encodedName + "=" + SigV4Signer.uriEncode(value, keepSlash: false)
        }.joined(separator: "&")
        let text = "\(scheme)://\(hostHeader)\(path)" + (query.isEmpty ? "" : "?" + query)
        guard let url = URL(string: text) else {
            throw ServiceError(.invalidPath, "\(request.action): the key cannot be made into a URL.")
        }
        var headers = request.headers
        headers.append(("Host", hostHeader))
        headers.append(("x-amz-date", SigV4Signer.timestamp(Date())))
        headers.append(("x-amz-content-sha256", request.payloadHash))
        if let token = signer.credentials.sessionToken {
            headers.append(("X-Amz-Security-Token", token))
        }
        let signature = signer.sign(
            method: request.method.rawValue, encodedPath: path, query: request.query,
            headers: headers, payloadHash: request.payloadHash,
            timestamp: headers.first { $0.0 == "x-amz-date" }?.1 ?? ""
        )
        var fields = StratusHTTPHeaders(headers)
        fields.add("Authorization", signature.authorization)
        return StratusHTTPRequest(
            method: request.method, url: url, headers: fields, body: request.body, responseDigests: responseDigests)
    }

    /// Sends a request and returns its 2xx answer; any other answer, and transport failures,
    /// are thrown as ``/Stratus/ServiceError`` after the retries `repetition` allows.
    func send(
        _ request: Request,
        repetition: Repetition,
        destination: HTTPResponseDestination = .memory(limit: 8 * 1_048_576),
        progress: (@Sendable (HTTPProgress) -> Void)? = nil
    ) async throws -> StratusHTTPResponse {
        return try await configuration.retryPolicy.run(repetition) { _ in
            try Task.checkCancellation()
            let signed = try signed(request)
            requestLog.began(request.action)
            defer { requestLog.ended() }
            let response: StratusHTTPResponse
            do {
                response = try await http.execute(signed, into: destination, progress: progress)
            } catch {
                throw ServiceError.transportFailure(error, action: request.action)
            }
            guard response.isSuccess else {
                throw S3ErrorMapping.error(
                    status: response.status, headers: response.headers, body: response.body, action: request.action,
                    secrets: secrets)
            }
            return response
        }
    }

    /// Sends a request whose answer is an XML document and parses it.
    func sendXML(_ request: Request, repetition: Repetition) async throws -> XMLTree {
        let response = try await send(request, repetition: repetition)
        do {
            let document = try XMLTree.parse(response.body)
            // CompleteMultipartUpload and CopyObject can fail after a 200 status line.
            if document.name == "Error" {
                throw S3ErrorMapping.error(status: 500, body: response.body, action: request.action, secrets: secrets)
            }
            return document
        } catch let error as XMLTreeError {
            throw S3ErrorMapping.undecodable(request.action, error.reason)
        }
    }
}
