/// The short pages the browser shows. Fixed text: nothing from the request is echoed.
enum RedirectPage {
    case signedIn, denied, failed, wrongState, notFound, notUnderstood, tooLarge

    var html: String {
        let (title, text): (String, String) =
            switch self {
            case .signedIn: ("Signed in", "You are signed in. You can close this window and return to the app.")
            case .denied:
                (
                    "Sign-in cancelled",
                    "Access was not granted. You can close this window; start the sign-in again from the app to retry."
                )
            case .failed:
                (
                    "Sign-in failed",
                    "The provider did not complete the sign-in. You can close this window; the app says what went wrong."
                )
            case .wrongState:
                (
                    "Not this sign-in",
                    "This response does not belong to the sign-in in progress, so it was ignored. Finish the sign-in in the window the app opened most recently."
                )
            case .notFound: ("Not found", "This address only receives the sign-in response.")
            case .notUnderstood: ("Bad request", "This request was not understood.")
            case .tooLarge: ("Bad request", "This request was too large.")
            }
        return "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>\(title)</title></head>"
            + "<body style=\"font-family: sans-serif; margin: 3em\"><h1>\(title)</h1><p>\(text)</p></body></html>"
    }
}
