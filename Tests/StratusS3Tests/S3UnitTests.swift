import Foundation
import Stratus
import StratusAdapterKit
import StratusHTTP
import StratusTestSupport
import Testing

@testable import StratusS3

@Suite("S3 adapter pieces that need no server")
struct S3UnitTests {
    @Test("credentials: the environment first, then the credentials file's profile")
    func credentialResolution() throws {
        let temporaryFolder = try TemporaryFolder(prefix: "stratus-s3")
        defer { temporaryFolder.remove() }
        let folder = temporaryFolder.url
        let file = folder.appending(path: "credentials")
        try """
        # comment
        [default]
        aws_access_key_id = AKIDDEFAULT
        aws_secret_access_key = default-secret

        [profile work]
        aws_access_key_id=AKIDWORK
        aws_secret_access_key=work-secret
        aws_session_token=work-token
        """.write(to: file, atomically: true, encoding: .utf8)

        let fromEnvironment = try S3Credentials.resolve(environment: [
            "AWS_ACCESS_KEY_ID": "AKIDENV", "AWS_SECRET_ACCESS_KEY": "env-secret", "AWS_SESSION_TOKEN": "env-token",
            "AWS_SHARED_CREDENTIALS_FILE": file.path,
        ])
        #expect(
            fromEnvironment
                == S3Credentials(accessKeyID: "AKIDENV", secretAccessKey: "env-secret", sessionToken: "env-token"))
        let fromDefault = try S3Credentials.resolve(environment: ["AWS_SHARED_CREDENTIALS_FILE": file.path])
        #expect(fromDefault == S3Credentials(accessKeyID: "AKIDDEFAULT", secretAccessKey: "default-secret"))
        let fromProfile = try S3Credentials.resolve(environment: [
            "AWS_SHARED_CREDENTIALS_FILE": file.path, "AWS_PROFILE": "work",
        ])
        #expect(
            fromProfile
                == S3Credentials(accessKeyID: "AKIDWORK", secretAccessKey: "work-secret", sessionToken: "work-token"))
        #expect(throws: ServiceError.self) {
            try S3Credentials.resolve(profile: "missing", file: file, environment: [:])
        }
        #expect(throws: ServiceError.self) {
            try S3Credentials.resolve(environment: ["HOME": folder.path])
        }
    }

    @Test("credentials never show their secret or token")
    func credentialsRedacted() {
        let credentials = S3Credentials(
            accessKeyID: "AKIDSHOWN", secretAccessKey: "very-secret-value", sessionToken: "session-token-value")
        var dumped = ""
        dump(credentials, to: &dumped)
        for text in [credentials.description, "\(credentials)", String(reflecting: credentials), dumped] {
            #expect(text.contains("AKIDSHOWN"))
            #expect(!text.contains("very-secret-value"))
            #expect(!text.contains("session-token-value"))
        }
    }

    @Test("a signed request shows neither its signature nor its session token when printed")
    func signedRequestRedacted() throws {
        let configuration = try S3Configuration(endpoint: URL(string: "http://127.0.0.1:9"), bucket: "redaction-test")
        let transport = S3Transport(
            http: try StratusHTTPClient(),
            signer: SigV4Signer(
                credentials: S3Credentials(
                    accessKeyID: "AKIDX", secretAccessKey: "s3cr3t", sessionToken: "tok3n-value"), region: "us-east-1"),
            configuration: configuration
        )
        let request = try transport.signed(
            S3Transport.Request(method: .get, key: "a b/c.json", query: [("versionId", "v1")], action: "test"))
        let authorization = try #require(request.headers["Authorization"])
        let signature = try #require(authorization.split(separator: "=").last.map(String.init))
        #expect(request.url.absoluteString == "http://127.0.0.1:9/redaction-test/a%20b/c.json?versionId=v1")
        #expect(request.headers["Host"] == "127.0.0.1:9")
        #expect(request.headers["X-Amz-Security-Token"] == "tok3n-value")
        let printed = "\(request) \(request.headers)"
        #expect(!printed.contains(signature))
        #expect(!printed.contains("tok3n-value"))
        #expect(!printed.contains("s3cr3t"))
    }

    @Test("virtual-hosted addressing puts the bucket in the host")
    func virtualHosted() throws {
        let configuration = try S3Configuration(region: "eu-west-1", bucket: "my-saves", root: "/game/")
        #expect(configuration.addressing == .virtualHosted)
        #expect(configuration.root == "game")
        let transport = S3Transport(
            http: try StratusHTTPClient(),
            signer: SigV4Signer(
                credentials: S3Credentials(accessKeyID: "a", secretAccessKey: "b"), region: "eu-west-1"),
            configuration: configuration)
        let request = try transport.signed(S3Transport.Request(method: .get, key: "game/slot.json", action: "test"))
        #expect(request.url.absoluteString == "https://my-saves.s3.eu-west-1.amazonaws.com/game/slot.json")
        #expect(request.headers["Authorization"]?.contains("/eu-west-1/s3/aws4_request") == true)
    }

    @Test("S3 error documents map to service error codes, and their signatures are dropped")
    func errorMapping() {
        let cases: [(String, Int, ServiceError.Code)] = [
            ("NoSuchKey", 404, .notFound), ("NoSuchBucket", 404, .invalidConfiguration),
            ("SlowDown", 503, .rateLimited),
            ("PreconditionFailed", 412, .conflict), ("InvalidAccessKeyId", 403, .unauthorized),
            ("SignatureDoesNotMatch", 403, .unauthorized), ("AccessDenied", 403, .permissionDenied),
            ("EntityTooLarge", 400, .payloadTooLarge), ("InternalError", 500, .server),
            ("ServiceUnavailable", 503, .server),
            ("BadDigest", 400, .integrityMismatch), ("NoSuchVersion", 404, .notFound),
            ("RequestTimeout", 400, .timeout),
        ]
        for (code, status, expected) in cases {
            let body = Data(
                "<?xml version=\"1.0\"?><Error><Code>\(code)</Code><Message>m</Message><StringToSign>AWS4-HMAC-SHA256 secret-sts</StringToSign><SignatureProvided>abcdef0123456789</SignatureProvided></Error>"
                    .utf8)
            let error = S3ErrorMapping.error(status: status, body: body, action: "GetObject of x", secrets: [])
            #expect(error.code == expected, "\(code)")
            #expect(error.providerError == code)
            #expect(!error.description.contains("abcdef0123456789"))
            #expect(!error.description.contains("secret-sts"))
        }
        // A message that echoes the session token and carries terminal escapes is scrubbed.
        let echo = Data(
            "<Error><Code>InvalidToken</Code><Message>token session-TOKEN-9 is bad\u{1B}]0;x\u{07}</Message></Error>"
                .utf8)
        let scrubbed = S3ErrorMapping.error(
            status: 400, body: echo, action: "GetObject of x", secrets: ["session-TOKEN-9"])
        #expect(!scrubbed.description.contains("session-TOKEN-9"))
        #expect(!scrubbed.description.contains("\u{1B}") && !scrubbed.description.contains("\u{07}"))
        #expect(scrubbed.message.contains("token <redacted> is bad"), "\(scrubbed)")
        #expect(S3ErrorMapping.error(status: 404, body: Data(), action: "HeadObject", secrets: []).code == .notFound)
        #expect(S3ErrorMapping.error(status: 502, body: Data("not xml".utf8), action: "x", secrets: []).code == .server)
        #expect(S3ErrorMapping.error(status: 418, body: Data(), action: "x", secrets: []).code == .invalidResponse)
    }

    @Test("change tokens are versioned and anything else is invalidChangeToken")
    func changeTokens() throws {
        let cursor = S3ChangeCursor(remote: "abc", watermark: 1234, seen: ["0011223344556677"])
        #expect(cursor.token.rawValue.hasPrefix("v1:"))
        #expect(try S3ChangeCursor(cursor.token, remote: "abc") == cursor)
        let bad = [
            "", "v1:", "v1:!!!", "v2:" + cursor.token.rawValue.dropFirst(3), "not a token", "v1:e30", "\u{1F4A9}\u{0}",
        ]
        for raw in bad {
            do {
                _ = try S3ChangeCursor(ChangeToken(rawValue: raw), remote: "abc")
                Issue.record("\(raw.debugDescription) was accepted")
            } catch let error as ServiceError {
                #expect(error.code == .invalidChangeToken)
            }
        }
        #expect(throws: ServiceError.self) { try S3ChangeCursor(cursor.token, remote: "another remote") }
    }

    @Test("the s3 backend reads its options and names the bad ones")
    func backendOptions() throws {
        func options(_ values: [String: String]) -> RemoteOptions {
            RemoteOptions(remoteName: "saves", typeName: "s3", values: values)
        }
        let base = [
            "bucket": "my-saves", "endpoint": "http://127.0.0.1:9000", "access_key_id": "AKID",
            "secret_access_key": "shh",
        ]
        let service = try #require(try S3Backend.makeService(options: options(base)) as? S3Service)
        #expect(service.configuration.addressing == .path)
        #expect(service.capabilities.hashAlgorithm == .sha256)
        #expect(service.capabilities.changeFeed == .emulated)
        var missing = base
        missing["bucket"] = nil
        var badAddressing = base
        badAddressing["addressing"] = "sideways"
        var smallParts = base
        smallParts["part_size"] = "1024"
        var badBucket = base
        badBucket["bucket"] = "Not_A_Bucket"
        for values in [missing, badAddressing, smallParts, badBucket] {
            do {
                _ = try S3Backend.makeService(options: options(values))
                Issue.record("\(values) was accepted")
            } catch let error as ServiceError {
                #expect(error.code == .invalidConfiguration)
                #expect(!error.message.contains("shh"))
            }
        }
    }

    @Test("conditional_writes: detect with an endpoint, atomic for AWS, and the names it takes")
    func conditionalWritesOption() throws {
        func service(_ values: [String: String]) throws -> S3Service {
            var all = ["bucket": "my-saves", "access_key_id": "AKID", "secret_access_key": "shh"]
            all.merge(values) { _, new in new }
            return try #require(
                try S3Backend.makeService(options: RemoteOptions(remoteName: "saves", typeName: "s3", values: all))
                    as? S3Service)
        }
        #expect(try service([:]).configuration.conditionalWrites == .atomic)
        #expect(try service([:]).capabilities.conditionalWrites == .atomic)
        let local = try service(["endpoint": "http://127.0.0.1:9000"])
        #expect(local.configuration.conditionalWrites == .detect)
        #expect(local.capabilities.conditionalWrites == .bestEffort, "not measured yet")
        #expect(try service(["conditional_writes": "best_effort"]).capabilities.conditionalWrites == .bestEffort)
        #expect(
            try service(["endpoint": "http://127.0.0.1:9000", "conditional_writes": "atomic"]).capabilities
                .conditionalWrites == .atomic)
        do {
            _ = try service(["conditional_writes": "sometimes"])
            Issue.record("conditional_writes = sometimes was accepted")
        } catch let error as ServiceError {
            #expect(error.code == .invalidConfiguration)
            #expect(error.message.contains("conditional_writes"))
        }
    }

    @Test("upload_concurrency: 4 by default, 1 to 16, anything else refused naming the option")
    func uploadConcurrencyOption() throws {
        func service(_ values: [String: String]) throws -> S3Service {
            var all = ["bucket": "my-saves", "access_key_id": "AKID", "secret_access_key": "shh"]
            all.merge(values) { _, new in new }
            return try #require(
                try S3Backend.makeService(options: RemoteOptions(remoteName: "saves", typeName: "s3", values: all))
                    as? S3Service)
        }
        #expect(try service([:]).configuration.uploadConcurrency == 4)
        #expect(try service(["upload_concurrency": "1"]).configuration.uploadConcurrency == 1)
        #expect(try service(["upload_concurrency": "16"]).configuration.uploadConcurrency == 16)
        #expect(S3Backend.options.contains { $0.name == "upload_concurrency" })
        for bad in ["0", "17", "-4", "many", "99999999999999999999"] {
            do {
                _ = try service(["upload_concurrency": bad])
                Issue.record("upload_concurrency = \(bad) was accepted")
            } catch let error as ServiceError {
                #expect(error.code == .invalidConfiguration)
                #expect(error.message.contains("upload_concurrency"), "\(error.message)")
            }
        }
    }

    @Test("condition support: atomic needs both PutObject conditions; If-Match is written in the form measured")
    func conditionSupportDecisions() {
        #expect(S3ConditionSupport.s3.conditionalWrites == .atomic)
        #expect(S3ConditionSupport.none.conditionalWrites == .bestEffort)
        var cephUnversioned = S3ConditionSupport(
            putIfNoneMatch: true, putIfMatch: .unquoted, completeIfNoneMatch: false, completeIfMatch: false,
            deleteIfMatch: false)
        #expect(cephUnversioned.conditionalWrites == .atomic)
        #expect(cephUnversioned.ifMatch("abc") == "abc")
        #expect(cephUnversioned.deleteIfMatch("abc") == nil)
        #expect(!cephUnversioned.completionHonours("If-None-Match"))
        cephUnversioned.putIfMatch = nil
        #expect(cephUnversioned.conditionalWrites == .bestEffort, "If-None-Match alone is not enough")
        #expect(S3ConditionSupport.s3.ifMatch("abc") == "\"abc\"")
        #expect(S3ConditionSupport.s3.deleteIfMatch("abc") == "\"abc\"")
        #expect(S3ConditionSupport.s3.completionHonours("If-Match"))
    }

    @Test("XML that is not UTF-8 is refused, never handed to the parser (a fuzzer's crash input)")
    func xmlThatIsNotUTF8IsRefused() {
        // Foundation's XMLParser crashed the process on this element name (Fuzz/run-fuzz.sh s3XML).
        let crashing = Data([0x0A, 0x3C, 0x4A, 0xFF, 0xFF, 0xFF, 0xFF, 0x0A])
        #expect(throws: XMLTreeError.self) { try XMLTree.parse(crashing) }
        let latin1 = Data("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><Error><Code>NoSuchKey</Code></Error>".utf8)
        #expect(throws: XMLTreeError.self) { try XMLTree.parse(latin1) }
        #expect(S3ErrorMapping.error(status: 404, body: crashing, action: "x", secrets: []).code == .notFound)
        // A processing instruction without data crashed it too (a null pointer in FoundationXML).
        let instruction = Data("<Js<Js<J]</<?JClose?>/<J]</<?J<<</J?><J</".utf8)
        #expect(throws: XMLTreeError.self) { try XMLTree.parse(instruction) }
        #expect(throws: XMLTreeError.self) { try XMLTree.parse(Data("<?xml?><J:z".utf8)) }
        let doctype = Data("<?xml version=\"1.0\"?><!DOCTYPE a [<!ENTITY b \"c\">]><Error>&b;</Error>".utf8)
        #expect(throws: XMLTreeError.self) { try XMLTree.parse(doctype) }
    }

    @Test("the XML reader reads a version listing in document order")
    func xmlListing() throws {
        let document = try XMLTree.parse(
            Data(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <ListVersionsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
                  <IsTruncated>false</IsTruncated>
                  <Version><Key>a &amp; b.txt</Key><VersionId>v2</VersionId><IsLatest>true</IsLatest><LastModified>2026-11-22T06:28:09.123Z</LastModified><ETag>"e"</ETag><Size>3</Size></Version>
                  <DeleteMarker><Key>a &amp; b.txt</Key><VersionId>v1</VersionId><IsLatest>false</IsLatest><LastModified>2026-11-22T06:28:08Z</LastModified></DeleteMarker>
                </ListVersionsResult>
                """.utf8))
        #expect(document.name == "ListVersionsResult")
        #expect(
            document.children.filter { $0.name == "Version" || $0.name == "DeleteMarker" }.map(\.name) == [
                "Version", "DeleteMarker",
            ])
        #expect(document.child("Version")?.value("Key") == "a & b.txt")
        #expect(S3Dates.isoDate("2026-11-22T06:28:09.123Z") != nil)
        #expect(S3Dates.isoDate("2026-11-22T06:28:08Z") != nil)
        #expect(throws: XMLTreeError.self) { try XMLTree.parse(Data("<unclosed>".utf8)) }
    }

    @Test("metadata values round-trip through ASCII headers")
    func metadataCoding() {
        for value in ["héllo wörld", "100% sure", "plain", "", "🎮\n"] {
            let encoded = S3MetadataCoding.encode(value)
            #expect(encoded.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F })
            #expect(S3MetadataCoding.decode(encoded) == value)
        }
        #expect(S3MetadataCoding.isValidName("device-name_2"))
        #expect(!S3MetadataCoding.isValidName("Device"))
    }

    @Test("waiting polls on the poll_interval option, and is unavailable without versions")
    func waitingPollsOnThePollIntervalOption() throws {
        func waiting(_ extra: [String: String]) throws -> ChangeWaiting {
            let values = [
                "bucket": "my-saves", "endpoint": "http://127.0.0.1:9000", "access_key_id": "AKID",
                "secret_access_key": "shh",
            ].merging(extra) { $1 }
            let options = RemoteOptions(remoteName: "saves", typeName: "s3", values: values)
            return try S3Backend.makeService(options: options).capabilities.changeWaiting
        }
        #expect(S3Backend.options.contains { $0.name == "poll_interval" })
        #expect(try waiting([:]) == .polling(PollingSchedule()))
        let configured = try waiting(["poll_interval": "0.5-10"])
        #expect(configured.polling.minimum == .milliseconds(500) && configured.polling.maximum == .seconds(10))
        #expect(try waiting(["versioning": "off"]) == .unavailable)
        let error = #expect(throws: ServiceError.self) { _ = try waiting(["poll_interval": "10-1"]) }
        #expect(error?.message.contains("'poll_interval'") == true)
    }
}
