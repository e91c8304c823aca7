import Foundation
import StratusAdapterKit
import Testing

@testable import StratusS3

/// The XML reader of S3 answers: the subset S3 sends is read exactly, anything else is refused
/// with an error rather than a crash.
@Suite struct S3XMLReaderTests {
    private func parse(_ text: String) throws -> XMLTree {
        try XMLTree.parse(Data(text.utf8))
    }

    @Test func referencesCDATAAndCommentsBecomeText() throws {
        let document = try parse(
            """
            \u{FEFF}<?xml version='1.0' encoding='utf-8'?>
            <!-- before -->
            <s3:Result xmlns:s3="http://s3.amazonaws.com/doc/2006-03-01/" a='1'>\
            <Key>a &lt;b&gt; &amp; &quot;c&quot; &apos;d&apos; &#233;&#x1F600;</Key>\
            <Raw><![CDATA[<not> & markup]]></Raw><!-- inside --><Empty/><s3:Empty2 x="y" />\
            <Lines>one\r\ntwo\rthree</Lines></s3:Result>
            <!-- after -->
            """)
        #expect(document.name == "Result")
        #expect(document.value("Key") == "a <b> & \"c\" 'd' é😀")
        #expect(document.value("Raw") == "<not> & markup")
        #expect(document.child("Empty") == XMLTree(name: "Empty"))
        #expect(
            document.child("Empty2") == XMLTree(name: "Empty2", namespace: "http://s3.amazonaws.com/doc/2006-03-01/"))
        #expect(document.value("Lines") == "one\ntwo\nthree")
        #expect(document.children.map(\.name) == ["Key", "Raw", "Empty", "Empty2", "Lines"])
    }

    @Test(arguments: [
        "", "   ", "text only", "<a>", "<a></b>", "<a></a><b/>", "<a/>trailing", "</a>",
        "<a><b></a></b>", "<a x=1></a>", "<a x=\"1></a>", "<a x=\"<\"></a>", "<a>&unknown;</a>",
        "<a>&#0;</a>", "<a>&#xD800;</a>", "<a>&#xFFFFFFFF;</a>", "<a>& loose</a>", "<1a/>", "<-a/>", "< a/>",
        "<a><!-- open</a>", "<a><![CDATA[open</a>", "<?xml version=\"1.0\"?>", "<?xml encoding=\"UTF-8\"?><a/>",
        "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a/>", "<?pi data?><a/>", "<a><?pi?></a>",
        "<!DOCTYPE a><a/>", "<a><!ENTITY b \"c\"></a>", "<?xml version=\"1.0\"", "<![CDATA[x]]><a/>",
    ])
    func malformedDocumentsAreRefused(_ text: String) {
        #expect(throws: XMLTreeError.self) { try parse(text) }
    }

    @Test func nestingIsBounded() throws {
        let deep = XMLTree.maximumDepth
        let fits = String(repeating: "<a>", count: deep) + String(repeating: "</a>", count: deep)
        var element = try parse(fits)
        var depth = 1
        while let child = element.children.first {
            element = child
            depth += 1
        }
        #expect(depth == deep)
        let tooDeep = String(repeating: "<a>", count: deep + 1) + String(repeating: "</a>", count: deep + 1)
        #expect(throws: XMLTreeError.self) { try parse(tooDeep) }
    }

    @Test func aMillionMalformedBytesAreRefusedWithoutRecursion() {
        let opened = String(repeating: "<a>", count: 400_000)
        #expect(throws: XMLTreeError.self) { try parse(opened) }
        let closed = "<a>" + String(repeating: "</a>", count: 400_000)
        #expect(throws: XMLTreeError.self) { try parse(closed) }
    }
}
