import CCurl

/// libcurl's process-wide initialisation, done once before the first handle is made.
/// (`curl_global_init` is not thread-safe on older libcurl; a Swift global is initialised once.)
enum CurlGlobal {
    private static let initialised: Bool = curl_global_init(STRATUS_CURL_GLOBAL_DEFAULT) == CURLE_OK

    /// Initialises libcurl if that has not happened yet.
    /// - Returns: Whether libcurl is usable.
    static func ensureInitialised() -> Bool { initialised }

    /// libcurl's version text, such as `7.88.1`.
    static var version: String {
        guard let info = curl_version_info(STRATUS_CURLVERSION_NOW), let text = info.pointee.version else {
            return "unknown"
        }
        return String(cString: text)
    }
}
