import Foundation
public import Logging
public import Stratus
public import StratusHTTP

extension StratusHTTPClient {
    /// The option every HTTP backend takes to trust other certificate authorities than the
    /// system's, such as the one `stratus-mock --tls` makes.
    public static let caFileOption = BackendOption(
        "ca_file",
        summary:
            "A PEM file of certificate authorities to trust instead of the system's (for a server with a private CA, such as stratus-mock --tls)."
    )

    /// The HTTP client for a configured remote: the system's trust roots, or the `ca_file`
    /// option's.
    /// - Parameters:
    ///   - options: The remote's options.
    ///   - logger: Where the client logs; nowhere when `nil`.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` naming the remote when the
    ///   CA file cannot be read or no client can be made.
    public static func forRemote(_ options: RemoteOptions, logger: Logger? = nil) throws -> StratusHTTPClient {
        var configuration = StratusHTTPClient.Configuration()
        if let logger { configuration.logger = logger }
        if let path = options.string("ca_file"), !path.isEmpty {
            let file = URL(filePath: NSString(string: path).expandingTildeInPath)
            guard FileManager.default.isReadableFile(atPath: file.path) else {
                throw ServiceError(
                    .invalidConfiguration, "Remote '\(options.remoteName)': the ca_file \(file.path) cannot be read.")
            }
            configuration.trustRoots = .caFile(file)
        }
        do {
            return try StratusHTTPClient(configuration: configuration)
        } catch {
            throw ServiceError(
                .invalidConfiguration, "Remote '\(options.remoteName)': the HTTP client could not be created: \(error)")
        }
    }
}
