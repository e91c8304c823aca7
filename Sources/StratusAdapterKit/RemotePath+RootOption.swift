public import Stratus

extension RemotePath {
    /// The folder a remote's `root` option names, as a path from the top of the account's
    /// space, such as `Games/Saves` (a trailing slash is allowed): how an adapter whose root may
    /// be a folder of the user's drive reads and checks that folder.
    ///
    /// ```swift
    /// let folder = try RemotePath(rootOption: "Games/Saves/", service: "Drive", alternative: "appDataFolder")
    /// // folder.components == ["Games", "Saves"]
    /// ```
    /// - Parameters:
    ///   - text: The option's value.
    ///   - service: The provider's name for the message, such as `Drive`.
    ///   - rules: The provider's path rules, which the folder must keep too, if any.
    ///   - alternative: The option's other spelling the message suggests besides a folder path,
    ///     such as `appDataFolder`.
    /// - Throws: ``/Stratus/ServiceError/Code/invalidConfiguration`` for a path that is not valid
    ///   or names no folder (the top itself), saying why.
    public init(rootOption text: String, service: String, rules: PathRules? = nil, alternative: String) throws {
        do {
            let path = try RemotePath(text.hasSuffix("/") ? String(text.dropLast()) : text)
            guard !path.isRoot else {
                throw ServiceError(.invalidPath, "The path names no folder.")
            }
            try rules?.validate(path)
            self = path
        } catch let error as ServiceError {
            throw ServiceError(
                .invalidConfiguration,
                "The \(service) option 'root' is not a valid folder path: \(error.message) Use \(alternative) or a path such as Games/Saves."
            )
        }
    }
}
