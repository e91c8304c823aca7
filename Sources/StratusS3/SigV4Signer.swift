import Foundation
import StratusDigest
import StratusHTTP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// AWS Signature Version 4 (header form), as S3 uses it: the path is encoded once and never
/// normalized.
///
/// Each stage (canonical request, string to sign, signature) is its own function so the
/// published AWS test vectors can check all three.
struct SigV4Signer: Sendable {
    /// The SHA-256 of no bytes, the payload hash of every request without a body.
    static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    let credentials: S3Credentials
    let region: String
    let service: String

    init(credentials: S3Credentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// What signing produced: the headers to add, and the stages for tests.
    struct Signed: Sendable {
        var canonicalRequest: String
        var stringToSign: String
        var signature: String
        var authorization: String
        var signedHeaders: String
    }

    /// Signs a request.
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - encodedPath: The path exactly as it is sent (already percent-encoded once).
    ///   - query: The query parameters, not encoded.
    ///   - headers: Every header to sign, `host` and `x-amz-date` included.
    ///   - payloadHash: The hex SHA-256 of the body, or `UNSIGNED-PAYLOAD`.
    ///   - timestamp: The `x-amz-date` value, `yyyyMMdd'T'HHmmss'Z'`.
    func sign(
        method: String,
        encodedPath: String,
        query: [(String, String)],
        headers: [(String, String)],
        payloadHash: String,
        timestamp: String
    ) -> Signed {
        let (canonical, signedHeaders) = SigV4Signer.canonicalRequest(
            method: method, encodedPath: encodedPath, query: query, headers: headers, payloadHash: payloadHash
        )
        let scope = "\(timestamp.prefix(8))/\(region)/\(service)/aws4_request"
        let toSign = SigV4Signer.stringToSign(timestamp: timestamp, scope: scope, canonicalRequest: canonical)
        let signature = signature(of: toSign, date: String(timestamp.prefix(8)))
        let authorization =
            "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope), SignedHeaders=\(signedHeaders), Signature=\(signature)"
        return Signed(
            canonicalRequest: canonical, stringToSign: toSign, signature: signature, authorization: authorization,
            signedHeaders: signedHeaders)
    }

    /// The canonical request and its signed-headers list.
    static func canonicalRequest(
        method: String,
        encodedPath: String,
        query: [(String, String)],
        headers: [(String, String)],
        payloadHash: String
    ) -> (request: String, signedHeaders: String) {
        var encoded: [(name: String, value: String)] = []
        for (name, value) in query {
            encoded.append((uriEncode(name, keepSlash: false), uriEncode(value, keepSlash: false)))
        }
        encoded.sort { (lhs: (name: String, value: String), rhs: (name: String, value: String)) -> Bool in
            lhs.name == rhs.name ? lhs.value < rhs.value : lhs.name < rhs.name
        }
        let canonicalQuery = encoded.map { $0.name + "=" + $0.value }.joined(separator: "&")
        var grouped: [String: [String]] = [:]
        for (name, value) in headers {
            grouped[name.lowercased(), default: []].append(trimmedHeaderValue(value))
        }
        let names = grouped.keys.sorted()
        let canonicalHeaders = names.map { "\($0):\(grouped[$0, default: []].joined(separator: ","))\n" }.joined()
        let signedHeaders = names.joined(separator: ";")
        let path = encodedPath.isEmpty ? "/" : encodedPath
        let request = [method.uppercased(), path, canonicalQuery, canonicalHeaders, signedHeaders, payloadHash].joined(
            separator: "\n")
        return (request, signedHeaders)
    }

    /// The string to sign for a canonical request.
    static func stringToSign(timestamp: String, scope: String, canonicalRequest: String) -> String {
        let hash = Hex.encode(Digest.sha256(Data(canonicalRequest.utf8)))
        return "AWS4-HMAC-SHA256\n\(timestamp)\n\(scope)\n\(hash)"
    }

    /// The hex signature of a string to sign, with the key derived for a day.
    func signature(of stringToSign: String, date: String) -> String {
        var key = HMACSHA256.authenticationCode(
            for: Data(date.utf8), key: Data(("AWS4" + credentials.secretAccessKey).utf8))
        for part in [region, service, "aws4_request"] {
            key = HMACSHA256.authenticationCode(for: Data(part.utf8), key: key)
        }
        return Hex.encode(HMACSHA256.authenticationCode(for: Data(stringToSign.utf8), key: key))
    }

    /// Trims a header value and folds every run of spaces into one, as SigV4 asks.
    static func trimmedHeaderValue(_ value: String) -> String {
        var result = ""
        var pendingSpace = false
        for character in value {
            if character == " " || character == "\t" {
                pendingSpace = !result.isEmpty
            } else {
                if pendingSpace { result.append(" ") }
                pendingSpace = false
                result.append(character)
            }
        }
        return result
    }

    /// Percent-encodes every byte outside `A-Z a-z 0-9 - . _ ~` (and `/` when kept), in
    /// upper-case hex: the one encoding used both for the URL sent and for what is signed.
    static func uriEncode(_ text: String, keepSlash: Bool) -> String {
        keepSlash ? PercentEncoding.encodePath(text) : PercentEncoding.encode(text)
    }

    /// The `x-amz-date` form of a moment: `yyyyMMdd'T'HHmmss'Z'` in UTC.
    static func timestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d%02d%02dT%02d%02d%02dZ",
            Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
            Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec)
        )
    }
}
