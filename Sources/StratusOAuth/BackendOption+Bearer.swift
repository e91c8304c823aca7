public import Stratus

extension BackendOption {
    /// `token_store`, the option of a bearer-token remote that names the JSON file holding its
    /// signed-in token (see ``/StratusOAuth/FileTokenStore``); needed unless ``accessToken`` is set.
    public static let tokenStore = BackendOption(
        "token_store",
        summary: "The path of the JSON file holding the signed-in token; needed unless access_token is set.")

    /// `access_token`, the option of a bearer-token remote that gives a fixed token, used as is
    /// and never refreshed (for tests and mock servers).
    public static let accessToken = BackendOption(
        "access_token",
        summary: "A fixed access token, used as is and never refreshed (for tests and mock servers).")
}
