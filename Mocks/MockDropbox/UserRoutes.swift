import Foundation
import Hummingbird
import MockSupport
import NIOCore

/// `users/get_current_account` and `users/get_space_usage`.
///
/// `users.stone` is not among the spec files the mock follows; the shapes here are the ones
/// the official Python SDK decodes (`dropbox/users.py`, `common.py`, `users_common.py`):
/// `FullAccount` needs `account_id` (exactly 40 characters), `name` (`Name`'s five strings),
/// `email`, `email_verified`, `disabled`, `locale`, `referral_link`, `is_paired`,
/// `account_type` (`AccountType`) and `root_info` (`RootInfo`, a struct with subtypes tagged
/// `user` or `team`); `country` (two letters), `profile_photo_url`, `team` and
/// `team_member_id` are optional. `SpaceUsage` needs `used` and `allocation` (`SpaceAllocation`:
/// `individual` with `allocated`, or `team`).
extension MockDropboxServer {
    /// The user routes, by name under `/2/users/`.
    var userRoutes: [(String, @Sendable (inout Request) async throws -> Response)] {
        [
            ("get_current_account", { try await self.getCurrentAccount(&$0) }),
            ("get_space_usage", { try await self.getSpaceUsage(&$0) }),
        ]
    }

    /// `get_current_account`: no argument → `FullAccount` of a basic (not team) account. Scope
    /// `account_info.read`.
    ///
    /// The same on every call: `account_id` is the authorization server's
    /// (``/MockOAuth/MockAuthorizationServer/Configuration/accountID``, the one a code exchange
    /// returns), the root and home namespace are one id derived from it, and the rest is fixed:
    /// "Stratus Mock" at `stratus-mock@example.com` (verified), locale `en`, country `US`, not
    /// paired, not disabled.
    func getCurrentAccount(_ request: inout Request) async throws -> Response {
        try authorize(request, scope: "account_info.read")
        try await voidArgument(&request, route: "users/get_current_account")
        let accountID = authorization.configuration.accountID
        let namespaceID = Self.namespaceID(of: accountID)
        let account: [String: Any] = [
            "account_id": accountID,
            "name": [
                "given_name": "Stratus", "surname": "Mock", "familiar_name": "Stratus",
                "display_name": "Stratus Mock", "abbreviated_name": "SM",
            ],
            "email": "stratus-mock@example.com",
            "email_verified": true,
            "disabled": false,
            "country": "US",
            "locale": "en",
            "referral_link": "https://www.dropbox.com/referrals/AAAstratusmock?src=global9",
            "is_paired": false,
            "account_type": [".tag": "basic"],
            "root_info": [".tag": "user", "root_namespace_id": namespaceID, "home_namespace_id": namespaceID],
        ]
        return Self.ok(account)
    }

    /// `get_space_usage`: no argument → `SpaceUsage`: `used` is the bytes of every live file's
    /// current revision (old revisions and deleted files are free, as on Dropbox), `allocation`
    /// is `individual` with ``Options/allocatedSpace``. Scope `account_info.read`.
    func getSpaceUsage(_ request: inout Request) async throws -> Response {
        try authorize(request, scope: "account_info.read")
        try await voidArgument(&request, route: "users/get_space_usage")
        let used = namespace.withState { $0.usedBytes }
        return Self.ok([
            "used": NSNumber(value: used),
            "allocation": [".tag": "individual", "allocated": NSNumber(value: options.allocatedSpace)],
        ])
    }

    /// Reads the argument of a route whose argument type is void: no body and no
    /// `Content-Type` (as `curl -X POST` and the Go SDK send it), or JSON `null` (as the Python
    /// SDK sends it, with `Content-Type: application/json`).
    /// - Throws: 400 as Dropbox answers otherwise: a `Content-Type` other than JSON's, a body
    ///   that is not JSON (an empty one with a JSON `Content-Type` included: "could not decode
    ///   input as JSON"), or JSON other than `null` ("expected null, got value").
    private func voidArgument(_ request: inout Request, route: String) async throws {
        let body: ByteBuffer
        do {
            body = try await request.readBody(limit: 1 << 20)
        } catch {
            throw DropboxFailure.badInput("Error in call to API function \"\(route)\": request body is too large")
        }
        if body.readableBytes == 0, request.headers[.contentType] == nil { return }
        // The Content-Type and the JSON (an object or null) are checked as for any RPC route.
        _ = try await rpcArguments(&request, route: route)
        let value = try? JSONSerialization.jsonObject(with: Data(body.readableBytesView), options: [.fragmentsAllowed])
        guard value is NSNull else {
            throw DropboxFailure.badInput(
                "Error in call to API function \"\(route)\": request body: expected null, got value")
        }
    }

    /// A namespace id (decimal digits, as Dropbox's are) that is the same for the same account.
    static func namespaceID(of accountID: String) -> String {
        // FNV-1a: stable across runs, unlike `Hasher`.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in accountID.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return String(1_000_000_000 + hash % 9_000_000_000)
    }
}

extension Namespace.State {
    /// The bytes of every live file's current revision.
    var usedBytes: Int64 {
        nodes.values.reduce(0) { total, node in
            guard node.kind == .file, !node.isDeleted, let current = node.current else { return total }
            return total + current.blob.size
        }
    }
}
