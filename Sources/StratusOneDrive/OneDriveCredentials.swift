public import StratusOAuth

/// How ``OneDriveService`` authorizes its Graph requests: a fixed access token
/// (`.accessToken(_:)`), or a ``/StratusOAuth/CredentialProvider`` for the Microsoft profile
/// (`.provider(_:)`, see `OAuthProvider.microsoft`) whose tokens are refreshed ahead of expiry
/// and once more when Graph answers 401 `InvalidAuthenticationToken`.
///
/// The token goes to the Graph origin only: never to an upload session's URL nor to a
/// pre-authenticated download URL, which carry their own authorization.
public typealias OneDriveCredentials = BearerCredentials
