import MockSupport

/// Makes opaque random tokens and codes shaped like the provider's.
struct TokenFactory: Sendable {
    let flavor: MockAuthorizationServer.Flavor

    /// Dropbox: `sl.u.` and 128 characters; Google: `ya29.a0` and 128 characters; Microsoft:
    /// `EwA` and 160 characters.
    func accessToken() -> String {
        switch flavor {
        case .dropbox: "sl.u." + Self.randomText(bytes: 96)
        case .google: "ya29.a0" + Self.randomText(bytes: 96)
        case .microsoft: "EwA" + Self.randomText(bytes: 120)
        }
    }

    /// Dropbox: 64 characters; Google: `1//0` and 96 characters; Microsoft: `M.C5` and 128.
    func refreshToken() -> String {
        switch flavor {
        case .dropbox: Self.randomText(bytes: 48)
        case .google: "1//0" + Self.randomText(bytes: 72)
        case .microsoft: "M.C5" + Self.randomText(bytes: 96)
        }
    }

    /// Dropbox: 43 characters; Google: `4/0` and 72 characters; Microsoft: `M.C5` and 64.
    func authorizationCode() -> String {
        switch flavor {
        case .dropbox: Self.randomText(bytes: 32)
        case .google: "4/0" + Self.randomText(bytes: 54)
        case .microsoft: "M.C5" + Self.randomText(bytes: 48)
        }
    }

    /// URL-safe Base64 of fresh random bytes (see ``MockSupport/RandomText``).
    static func randomText(bytes count: Int) -> String {
        RandomText.make(bytes: count)
    }
}
