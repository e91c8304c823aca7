public import StratusOAuth

/// How ``DriveService`` authorizes its requests: a fixed access token (`.accessToken(_:)`), or a
/// ``/StratusOAuth/CredentialProvider`` for the Google profile (`.provider(_:)`) whose tokens are
/// refreshed ahead of expiry and once more when Drive answers 401 `authError`; a revoked sign-in
/// is `reauthenticationRequired`.
///
/// The bearer credentials every OAuth adapter shares; the token never appears in descriptions
/// or errors.
public typealias DriveCredentials = BearerCredentials
