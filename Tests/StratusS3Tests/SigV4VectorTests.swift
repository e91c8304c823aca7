import Foundation
import StratusDigest
import Testing

@testable import StratusS3

/// One case of the AWS Signature Version 4 test suite (`aws-sig-v4-test-suite`): the request,
/// and the canonical request, string-to-sign digest and signature AWS publishes for it.
struct SigV4Vector: CustomTestStringConvertible, Sendable {
    var name: String
    var method: String = "GET"
    var path: String = "/"
    var query: [(String, String)] = []
    var headers: [(String, String)] = []
    var payloadHash: String = SigV4Signer.emptyPayloadHash
    /// The canonical request's lines.
    var canonical: [String]
    /// The last line of the string to sign: the SHA-256 of the canonical request.
    var canonicalDigest: String
    var signature: String

    var testDescription: String { name }

    static let host = ("Host", "example.amazonaws.com")
    static let date = ("X-Amz-Date", "20150830T123600Z")
    static let emptyHash = SigV4Signer.emptyPayloadHash
    static let formHash = "9095672bbd1f56dfc5b65f3e153adc8731a4a654192329106275f4c7b24d0b6e"

    static let suite: [SigV4Vector] = [
        SigV4Vector(
            name: "get-vanilla", headers: [host, date],
            canonical: [
                "GET", "/", "", "host:example.amazonaws.com", "x-amz-date:20150830T123600Z", "", "host;x-amz-date",
                emptyHash,
            ],
            canonicalDigest: "bb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63",
            signature: "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"
        ),
        SigV4Vector(
            name: "get-vanilla-query-order-key-case", query: [("Param2", "value2"), ("Param1", "value1")],
            headers: [host, date],
            canonical: [
                "GET", "/", "Param1=value1&Param2=value2", "host:example.amazonaws.com", "x-amz-date:20150830T123600Z",
                "", "host;x-amz-date", emptyHash,
            ],
            canonicalDigest: "816cd5b414d056048ba4f7c5386d6e0533120fb1fcfa93762cf0fc39e2cf19e0",
            signature: "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"
        ),
        SigV4Vector(
            name: "get-vanilla-query-unreserved",
            query: [
                (
                    "-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
                    "-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                )
            ],
            headers: [host, date],
            canonical: [
                "GET", "/",
                "-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz=-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
                "host:example.amazonaws.com", "x-amz-date:20150830T123600Z", "", "host;x-amz-date", emptyHash,
            ],
            canonicalDigest: "c30d4703d9f799439be92736156d47ccfb2d879ddf56f5befa6d1d6aab979177",
            signature: "9c3e54bfcdf0b19771a7f523ee5669cdf59bc7cc0884027167c21bb143a40197"
        ),
        SigV4Vector(
            name: "get-vanilla-utf8-query", query: [("\u{1234}", "bar")], headers: [host, date],
            canonical: [
                "GET", "/", "%E1%88%B4=bar", "host:example.amazonaws.com", "x-amz-date:20150830T123600Z", "",
                "host;x-amz-date", emptyHash,
            ],
            canonicalDigest: "eb30c5bed55734080471a834cc727ae56beb50e5f39d1bff6d0d38cb192a7073",
            signature: "2cdec8eed098649ff3a119c94853b13c643bcf08f8b0a1d91e12c9027818dd04"
        ),
        SigV4Vector(
            name: "get-header-key-duplicate",
            headers: [host, ("My-Header1", "value2"), ("My-Header1", "value2"), ("My-Header1", "value1"), date],
            canonical: [
                "GET", "/", "", "host:example.amazonaws.com", "my-header1:value2,value2,value1",
                "x-amz-date:20150830T123600Z", "", "host;my-header1;x-amz-date", emptyHash,
            ],
            canonicalDigest: "dc7f04a3abfde8d472b0ab1a418b741b7c67174dad1551b4117b15527fbe966c",
            signature: "c9d5ea9f3f72853aea855b47ea873832890dbdd183b4468f858259531a5138ea"
        ),
        SigV4Vector(
            name: "get-header-value-order",
            headers: [
                host, ("My-Header1", "value4"), ("My-Header1", "value1"), ("My-Header1", "value3"),
                ("My-Header1", "value2"), date,
            ],
            canonical: [
                "GET", "/", "", "host:example.amazonaws.com", "my-header1:value4,value1,value3,value2",
                "x-amz-date:20150830T123600Z", "", "host;my-header1;x-amz-date", emptyHash,
            ],
            canonicalDigest: "31ce73cd3f3d9f66977ad3dd957dc47af14df92fcd8509f59b349e9137c58b86",
            signature: "08c7e5a9acfcfeb3ab6b2185e75ce8b1deb5e634ec47601a50643f830c755c01"
        ),
        SigV4Vector(
            name: "get-header-value-trim",
            headers: [host, ("My-Header1", " value1"), ("My-Header2", " \"a   b   c\""), date],
            canonical: [
                "GET", "/", "", "host:example.amazonaws.com", "my-header1:value1", "my-header2:\"a b c\"",
                "x-amz-date:20150830T123600Z", "", "host;my-header1;my-header2;x-amz-date", emptyHash,
            ],
            canonicalDigest: "a726db9b0df21c14f559d0a978e563112acb1b9e05476f0a6a1c7d68f28605c7",
            signature: "acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736"
        ),
        SigV4Vector(
            name: "get-unreserved", path: "/-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
            headers: [host, date],
            canonical: [
                "GET", "/-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", "",
                "host:example.amazonaws.com", "x-amz-date:20150830T123600Z", "", "host;x-amz-date", emptyHash,
            ],
            canonicalDigest: "6a968768eefaa713e2a6b16b589a8ea192661f098f37349f4e2c0082757446f9",
            signature: "07ef7494c76fa4850883e2b006601f940f8a34d404d0cfa977f52a65bbf5f24f"
        ),
        SigV4Vector(
            name: "get-utf8", path: "/\u{1234}", headers: [host, date],
            canonical: [
                "GET", "/%E1%88%B4", "", "host:example.amazonaws.com", "x-amz-date:20150830T123600Z", "",
                "host;x-amz-date", emptyHash,
            ],
            canonicalDigest: "2a0a97d02205e45ce2e994789806b19270cfbbb0921b278ccf58f5249ac42102",
            signature: "8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85"
        ),
        SigV4Vector(
            name: "get-space (unnormalized, as S3 signs)", path: "/example space/", headers: [host, date],
            canonical: [
                "GET", "/example%20space/", "", "host:example.amazonaws.com", "x-amz-date:20150830T123600Z", "",
                "host;x-amz-date", emptyHash,
            ],
            canonicalDigest: "63ee75631ed7234ae61b5f736dfc7754cdccfedbff4b5128a915706ee9390d86",
            signature: "652487583200325589f1fba4c7e578f72c47cb61beeca81406b39ddec1366741"
        ),
        SigV4Vector(
            name: "get-slashes (unnormalized, as S3 signs)", path: "//example//", headers: [host, date],
            canonical: [
                "GET", "//example//", "", "host:example.amazonaws.com", "x-amz-date:20150830T123600Z", "",
                "host;x-amz-date", emptyHash,
            ],
            canonicalDigest: "528ec3105ee1f34ab014bb0a1a45da0ed2742a4fea3555149e5b4d5d201eb240",
            signature: "87cca117541a147f6df867677d98a7d80dff226d2bfca9e4ffa899665623c7e5"
        ),
        SigV4Vector(
            name: "post-vanilla", method: "POST", headers: [host, date],
            canonical: [
                "POST", "/", "", "host:example.amazonaws.com", "x-amz-date:20150830T123600Z", "", "host;x-amz-date",
                emptyHash,
            ],
            canonicalDigest: "553f88c9e4d10fc9e109e2aeb65f030801b70c2f6468faca261d401ae622fc87",
            signature: "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b"
        ),
        SigV4Vector(
            name: "post-vanilla-query", method: "POST", query: [("Param1", "value1")], headers: [host, date],
            canonical: [
                "POST", "/", "Param1=value1", "host:example.amazonaws.com", "x-amz-date:20150830T123600Z", "",
                "host;x-amz-date", emptyHash,
            ],
            canonicalDigest: "9d659678c1756bb3113e2ce898845a0a79dbbc57b740555917687f1b3340fbbd",
            signature: "28038455d6de14eafc1f9222cf5aa6f1a96197d7deb8263271d420d138af7f11"
        ),
        SigV4Vector(
            name: "post-header-key-sort", method: "POST", headers: [host, ("My-Header1", "value1"), date],
            canonical: [
                "POST", "/", "", "host:example.amazonaws.com", "my-header1:value1", "x-amz-date:20150830T123600Z", "",
                "host;my-header1;x-amz-date", emptyHash,
            ],
            canonicalDigest: "9368318c2967cf6de74404b30c65a91e8f6253e0a8659d6d5319f1a812f87d65",
            signature: "c5410059b04c1ee005303aed430f6e6645f61f4dc9e1461ec8f8916fdf18852c"
        ),
        SigV4Vector(
            name: "post-x-www-form-urlencoded", method: "POST",
            headers: [
                ("Content-Type", "application/x-www-form-urlencoded"), host, ("Content-Length", "13"), date,
                ("X-Amz-Content-Sha256", formHash),
            ],
            payloadHash: formHash,
            canonical: [
                "POST", "/", "", "content-length:13", "content-type:application/x-www-form-urlencoded",
                "host:example.amazonaws.com",
                "x-amz-content-sha256:\(formHash)", "x-amz-date:20150830T123600Z", "",
                "content-length;content-type;host;x-amz-content-sha256;x-amz-date", formHash,
            ],
            canonicalDigest: "b1edd1d03544c25390e32085d55b57acc9a3961bb59415ff86c45c3d89d16cfb",
            signature: "d3875051da38690788ef43de4db0d8f280229d82040bfac253562e56c3f20e0b"
        ),
        SigV4Vector(
            name: "post-x-www-form-urlencoded-parameters", method: "POST",
            headers: [
                ("Content-Type", "application/x-www-form-urlencoded; charset=utf-8"), host, ("Content-Length", "13"),
                date, ("X-Amz-Content-Sha256", formHash),
            ],
            payloadHash: formHash,
            canonical: [
                "POST", "/", "", "content-length:13", "content-type:application/x-www-form-urlencoded; charset=utf-8",
                "host:example.amazonaws.com",
                "x-amz-content-sha256:\(formHash)", "x-amz-date:20150830T123600Z", "",
                "content-length;content-type;host;x-amz-content-sha256;x-amz-date", formHash,
            ],
            canonicalDigest: "a89f1a5b53e37702ee6363ce1da3ce8f54386f3c8f352ae652153c2982a0bc4d",
            signature: "328d1b9eaadca9f5818ef05e8392801e091653bafec24fcab71e7344e7f51422"
        ),
    ]
}

@Suite("SigV4 against the published AWS test vectors")
struct SigV4VectorTests {
    static let suiteSigner = SigV4Signer(
        credentials: S3Credentials(
            accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"),
        region: "us-east-1", service: "service"
    )

    @Test("canonical request, string to sign, signature and Authorization", arguments: SigV4Vector.suite)
    func vector(_ vector: SigV4Vector) {
        let signed = Self.suiteSigner.sign(
            method: vector.method,
            encodedPath: SigV4Signer.uriEncode(vector.path, keepSlash: true),
            query: vector.query,
            headers: vector.headers,
            payloadHash: vector.payloadHash,
            timestamp: "20150830T123600Z"
        )
        #expect(signed.canonicalRequest == vector.canonical.joined(separator: "\n"))
        #expect(
            signed.stringToSign
                == "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\n\(vector.canonicalDigest)"
        )
        #expect(signed.signature == vector.signature)
        let signedHeaders = vector.canonical[vector.canonical.count - 2]
        #expect(
            signed.authorization
                == "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=\(signedHeaders), Signature=\(vector.signature)"
        )
    }

    @Test("the form body's payload hash is the SHA-256 of Param1=value1")
    func formPayloadHash() {
        #expect(Hex.encode(Digest.sha256(Data("Param1=value1".utf8))) == SigV4Vector.formHash)
        #expect(Hex.encode(Digest.sha256(Data())) == SigV4Signer.emptyPayloadHash)
    }

    /// The `GET Object` example of the S3 API reference (Authenticating Requests: Using the
    /// Authorization Header), signed for the service `s3`.
    @Test("the S3 GetObject example with a Range header")
    func s3GetObjectExample() {
        let signer = SigV4Signer(
            credentials: S3Credentials(
                accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
            region: "us-east-1"
        )
        let signed = signer.sign(
            method: "GET", encodedPath: "/test.txt", query: [],
            headers: [
                ("Host", "examplebucket.s3.amazonaws.com"), ("Range", "bytes=0-9"),
                ("x-amz-content-sha256", SigV4Signer.emptyPayloadHash), ("x-amz-date", "20130524T000000Z"),
            ],
            payloadHash: SigV4Signer.emptyPayloadHash, timestamp: "20130524T000000Z"
        )
        #expect(
            signed.canonicalRequest
                == [
                    "GET", "/test.txt", "", "host:examplebucket.s3.amazonaws.com", "range:bytes=0-9",
                    "x-amz-content-sha256:\(SigV4Signer.emptyPayloadHash)", "x-amz-date:20130524T000000Z", "",
                    "host;range;x-amz-content-sha256;x-amz-date", SigV4Signer.emptyPayloadHash,
                ].joined(separator: "\n"))
        #expect(
            signed.stringToSign.hasSuffix(
                "\n20130524/us-east-1/s3/aws4_request\n7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972"
            ))
        #expect(signed.signature == "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
    }

    @Test("S3 keys are encoded once, with '/' kept and every other reserved byte encoded")
    func keyEncoding() {
        #expect(
            SigV4Signer.uriEncode("saves/🎮 slot 1+2.json", keepSlash: true) == "saves/%F0%9F%8E%AE%20slot%201%2B2.json")
        #expect(SigV4Signer.uriEncode("a/b", keepSlash: false) == "a%2Fb")
        #expect(SigV4Signer.uriEncode("100% done", keepSlash: true) == "100%25%20done")
    }

    @Test("x-amz-date is UTC in the compact ISO 8601 form")
    func timestamp() {
        #expect(SigV4Signer.timestamp(Date(timeIntervalSince1970: 1_440_938_160)) == "20150830T123600Z")
    }
}
