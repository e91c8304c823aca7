import CCurl
import Foundation

/// Typed `curl_easy_setopt` calls that remember the first failure, so a handle's setup reads as
/// a list and is checked once.
struct CurlOptions {
    let easy: UnsafeMutableRawPointer
    private(set) var failure: StratusHTTPClientError?

    init(easy: UnsafeMutableRawPointer) { self.easy = easy }

    mutating func set(_ option: CURLoption, _ value: Int) {
        check(option, stratus_easy_setopt_long(easy, option, value))
    }

    mutating func set(_ option: CURLoption, _ value: Int64) {
        check(option, stratus_easy_setopt_off_t(easy, option, curl_off_t(value)))
    }

    /// Strings are copied by libcurl, so the Swift string need not outlive the call.
    mutating func set(_ option: CURLoption, _ value: String) {
        let code = value.withCString { stratus_easy_setopt_pointer(easy, option, $0) }
        check(option, code)
    }

    mutating func set(_ option: CURLoption, _ pointer: UnsafeRawPointer?) {
        check(option, stratus_easy_setopt_pointer(easy, option, pointer))
    }

    mutating func setNull(_ option: CURLoption) {
        check(option, stratus_easy_setopt_pointer(easy, option, nil))
    }

    /// The blob is copied by libcurl (`CURL_BLOB_COPY`).
    mutating func setBlob(_ option: CURLoption, _ data: Data) {
        let code = data.withUnsafeBytes { bytes -> CURLcode in
            var blob = curl_blob(
                data: UnsafeMutableRawPointer(mutating: bytes.baseAddress), len: bytes.count,
                flags: UInt32(CURL_BLOB_COPY))
            return stratus_easy_setopt_blob(easy, option, &blob)
        }
        check(option, code)
    }

    mutating func setCallback(_ option: CURLoption, _ callback: stratus_curl_data_callback) {
        check(option, stratus_easy_setopt_data_callback(easy, option, callback))
    }

    mutating func setProgressCallback(_ callback: stratus_curl_progress_callback) {
        check(CURLOPT_XFERINFOFUNCTION, stratus_easy_setopt_progress_callback(easy, CURLOPT_XFERINFOFUNCTION, callback))
    }

    mutating func setSeekCallback(_ callback: stratus_curl_seek_callback) {
        check(CURLOPT_SEEKFUNCTION, stratus_easy_setopt_seek_callback(easy, CURLOPT_SEEKFUNCTION, callback))
    }

    private mutating func check(_ option: CURLoption, _ code: CURLcode) {
        guard code != CURLE_OK, failure == nil else { return }
        failure = StratusHTTPClientError(
            .transport,
            "libcurl refused option \(option.rawValue) while setting up the request.",
            curlCode: Int(code.rawValue),
            curlMessage: String(cString: curl_easy_strerror(code))
        )
    }
}
