import HTTPTypes
import Hummingbird

/// The application's keys (`--app-id`, `--rest-key`, `--master-key`) checked against a
/// request's headers in each platform's style. A request without the right application id —
/// or, when a REST key is set, without it or the master key — is `unauthorized` (403).
struct Credentials: Sendable {
    var applicationId: String
    var restKey: String?
    var masterKey: String?

    /// What a request's headers prove: master-key rights, and the session token to look up.
    struct Claim: Sendable, Equatable {
        var isMaster: Bool
        var sessionToken: String?
    }

    /// Parse: `X-Parse-Application-Id`, `X-Parse-REST-API-Key`, `X-Parse-Master-Key`,
    /// `X-Parse-Session-Token`.
    func parse(_ headers: HTTPFields) throws(APIError) -> Claim {
        guard headers[Self.parseApplicationId] == applicationId else { throw .unauthorized }
        if let master = headers[Self.parseMasterKey] {
            guard master == masterKey else { throw .unauthorized }
            return Claim(isMaster: true, sessionToken: nil)
        }
        if let restKey, headers[Self.parseRESTKey] != restKey { throw .unauthorized }
        return Claim(isMaster: false, sessionToken: headers[Self.parseSessionToken])
    }

    /// LeanCloud: `X-LC-Id`, then `X-LC-Key: key[,master]` or
    /// `X-LC-Sign: md5(timestamp + key),timestamp[,master]`; `X-LC-Session` for the user.
    func leanCloud(_ headers: HTTPFields) throws(APIError) -> Claim {
        guard headers[Self.lcId] == applicationId else { throw .unauthorized }
        let session = headers[Self.lcSession]
        if let key = headers[Self.lcKey] {
            let parts = key.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return try grant(key: parts[0], master: parts.count > 1 && parts[1] == "master", session: session)
        }
        if let sign = headers[Self.lcSign] {
            let parts = sign.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard parts.count >= 2 else { throw .unauthorized }
            let master = parts.count > 2 && parts[2] == "master"
            // Without a REST key any app-key signature passes, as an X-LC-Key would.
            guard let key = master ? masterKey : restKey else {
                if master { throw .unauthorized }
                return Claim(isMaster: false, sessionToken: session)
            }
            guard MD5.hex(parts[1] + key) == parts[0].lowercased() else { throw .unauthorized }
            return Claim(isMaster: master, sessionToken: session)
        }
        guard restKey == nil else { throw .unauthorized }
        return Claim(isMaster: false, sessionToken: session)
    }

    /// Backendless: `application-id`, `secret-key` (the REST key, or the master key for
    /// master rights) and `user-token` for the user.
    func backendless(_ headers: HTTPFields) throws(APIError) -> Claim {
        try backendless(
            applicationId: headers[Self.blApplicationId], secretKey: headers[Self.blSecretKey],
            userToken: headers[Self.blUserToken])
    }

    /// Backendless's keys however they came: in headers, or in the URL
    /// (`/{application-id}/{secret-key}/data/…`, the form Backendless's REST docs use).
    func backendless(applicationId id: String?, secretKey: String?, userToken: String?) throws(APIError) -> Claim {
        guard id == applicationId else { throw .unauthorized }
        if let key = secretKey, masterKey != nil, key == masterKey {
            return Claim(isMaster: true, sessionToken: nil)
        }
        if let restKey, secretKey != restKey { throw .unauthorized }
        return Claim(isMaster: false, sessionToken: userToken)
    }

    private func grant(key: String, master: Bool, session: String?) throws(APIError) -> Claim {
        if master {
            guard let masterKey, key == masterKey else { throw .unauthorized }
            return Claim(isMaster: true, sessionToken: nil)
        }
        if let restKey, key != restKey { throw .unauthorized }
        return Claim(isMaster: false, sessionToken: session)
    }

    static let parseApplicationId = HTTPField.Name("X-Parse-Application-Id")!
    static let parseRESTKey = HTTPField.Name("X-Parse-REST-API-Key")!
    static let parseMasterKey = HTTPField.Name("X-Parse-Master-Key")!
    static let parseSessionToken = HTTPField.Name("X-Parse-Session-Token")!
    static let lcId = HTTPField.Name("X-LC-Id")!
    static let lcKey = HTTPField.Name("X-LC-Key")!
    static let lcSign = HTTPField.Name("X-LC-Sign")!
    static let lcSession = HTTPField.Name("X-LC-Session")!
    static let blApplicationId = HTTPField.Name("application-id")!
    static let blSecretKey = HTTPField.Name("secret-key")!
    static let blUserToken = HTTPField.Name("user-token")!
}
