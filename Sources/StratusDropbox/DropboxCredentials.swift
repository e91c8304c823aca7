public import StratusOAuth

/// How ``DropboxService`` authorizes its requests: a fixed access token
/// (`.accessToken(_:)`), or a ``/StratusOAuth/CredentialProvider`` for the Dropbox profile
/// (`.provider(_:)`) whose tokens are refreshed ahead of expiry and once more when Dropbox
/// answers `expired_access_token` or `invalid_access_token`.
///
/// The bearer credentials every OAuth adapter shares; the token never appears in descriptions
/// or errors.
public typealias DropboxCredentials = BearerCredentials
