import CCurl

extension StratusHTTPClientError {
    /// The error for a libcurl result code.
    /// - Parameters:
    ///   - code: libcurl's result.
    ///   - detail: The text libcurl wrote to the transfer's error buffer, if any.
    static func fromCurl(_ code: CURLcode, detail: String) -> StratusHTTPClientError {
        let summary = String(cString: curl_easy_strerror(code))
        let curlMessage = detail.isEmpty ? summary : detail
        let kind: Code
        let message: String
        switch code {
        case CURLE_COULDNT_CONNECT:
            (kind, message) = (.connectionRefused, "Could not connect to the server.")
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            (kind, message) = (.hostNotFound, "The host name could not be resolved.")
        case CURLE_OPERATION_TIMEDOUT:
            (kind, message) = (.timeout, "The request took longer than its time limit.")
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
            CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR,
            CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_SHUTDOWN_FAILED,
            CURLE_SSL_CRL_BADFILE, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED:
            (kind, message) = (.tls, "The secure connection failed; the server's certificate may not be trusted.")
        case CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_PARTIAL_FILE, CURLE_HTTP2,
            CURLE_HTTP2_STREAM:
            (kind, message) = (.connectionLost, "The connection broke before the exchange completed.")
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL:
            (kind, message) = (.invalidRequest, "The URL cannot be requested (only http and https are allowed).")
        default:
            (kind, message) = (.transport, "The request failed in transport.")
        }
        return StratusHTTPClientError(kind, message, curlCode: Int(code.rawValue), curlMessage: curlMessage)
    }
}
