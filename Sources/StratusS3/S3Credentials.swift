public import Foundation
import Stratus

/// The access key that signs S3 requests.
///
/// The secret and the session token never appear in descriptions, dumps or errors.
public struct S3Credentials: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The access key id (not a secret: it names the key).
    public var accessKeyID: String
    /// The secret access key.
    public var secretAccessKey: String
    /// The session token of temporary credentials, sent as `X-Amz-Security-Token`.
    public var sessionToken: String?

    /// Creates credentials.
    /// - Parameters:
    ///   - accessKeyID: The access key id.
    ///   - secretAccessKey: The secret access key.
    ///   - sessionToken: The session token of temporary credentials.
    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    /// The key id, with the secret and token shown as `<redacted>`.
    public var description: String {
        "S3Credentials(accessKeyID: \(accessKeyID), secretAccessKey: <redacted>\(sessionToken == nil ? "" : ", sessionToken: <redacted>"))"
    }

    /// A mirror without the secret, so `dump` does not print it.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "accessKeyID": accessKeyID, "secretAccessKey": "<redacted>",
                "sessionToken": sessionToken == nil ? "nil" : "<redacted>",
            ])
    }

    /// Finds credentials the way AWS tools do: the environment (`AWS_ACCESS_KEY_ID`,
    /// `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`), then the shared credentials file
    /// (`AWS_SHARED_CREDENTIALS_FILE`, else `~/.aws/credentials`) under a profile
    /// (`AWS_PROFILE`, else `default`).
    /// - Parameters:
    ///   - profile: The profile to read, overriding `AWS_PROFILE`.
    ///   - file: The credentials file, overriding the environment and the default.
    ///   - environment: The environment to read.
    /// - Returns: The credentials found.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` when there are none, or the
    ///   file names the profile without both keys.
    public static func resolve(
        profile: String? = nil,
        file: URL? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> S3Credentials {
        if profile == nil, file == nil,
            let id = environment["AWS_ACCESS_KEY_ID"], !id.isEmpty,
            let secret = environment["AWS_SECRET_ACCESS_KEY"], !secret.isEmpty
        {
            let token = environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
            return S3Credentials(accessKeyID: id, secretAccessKey: secret, sessionToken: token)
        }
        let profileName = profile ?? environment["AWS_PROFILE"].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
        let fileURL: URL
        if let file {
            fileURL = file
        } else if let path = environment["AWS_SHARED_CREDENTIALS_FILE"], !path.isEmpty {
            fileURL = URL(filePath: NSString(string: path).expandingTildeInPath)
        } else if let home = environment["HOME"], !home.isEmpty {
            fileURL = URL(filePath: home).appending(path: ".aws/credentials")
        } else {
            fileURL = FileManager.default.homeDirectoryForCurrentUser.appending(path: ".aws/credentials")
        }
        guard let text = try? String(contentsOf: fileURL, encoding: .utf8) else {
            throw ServiceError(
                .invalidConfiguration,
                "No S3 credentials: set access_key_id and secret_access_key, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a profile in \(fileURL.path)."
            )
        }
        let section = parseProfiles(text)[profileName] ?? [:]
        guard let id = section["aws_access_key_id"], !id.isEmpty,
            let secret = section["aws_secret_access_key"], !secret.isEmpty
        else {
            throw ServiceError(
                .invalidConfiguration,
                "The credentials file \(fileURL.path) has no profile '\(profileName)' with aws_access_key_id and aws_secret_access_key."
            )
        }
        let token = section["aws_session_token"].flatMap { $0.isEmpty ? nil : $0 }
        return S3Credentials(accessKeyID: id, secretAccessKey: secret, sessionToken: token)
    }

    /// The `[profile]` sections of an INI-style credentials file, keys lower-cased.
    static func parseProfiles(_ text: String) -> [String: [String: String]] {
        var profiles: [String: [String: String]] = [:]
        var current: String?
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                var name = line.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
                if name.hasPrefix("profile ") { name = String(name.dropFirst(8)).trimmingCharacters(in: .whitespaces) }
                current = name
                continue
            }
            guard let current, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            profiles[current, default: [:]][key] = value
        }
        return profiles
    }
}
