import MockSupport
import Testing

@Suite("Form encoding")
struct FormFieldsTests {
    @Test("Parses '+' as a space, percent escapes, empty values and repeated names")
    func parse() throws {
        let form = try FormFields(parsing: "scope=a+b&state=x%26y%3Dz&empty=&bare&&name=%C3%A9&name=2")
        #expect(form["scope"] == "a b")
        #expect(form["state"] == "x&y=z")
        #expect(form["empty"] == "")
        #expect(form["bare"] == "")
        #expect(form["name"] == "é")
        #expect(form.values(for: "name") == ["é", "2"])
        #expect(form.repeatedNames == ["name"])
        #expect(form["missing"] == nil)
    }

    @Test("Refuses broken escapes and bytes that are not UTF-8")
    func malformed() {
        #expect(throws: PercentEncoding.DecodingError.malformedEscape) { try FormFields(parsing: "a=%2") }
        #expect(throws: PercentEncoding.DecodingError.malformedEscape) { try FormFields(parsing: "a=%zz") }
        #expect(throws: PercentEncoding.DecodingError.notUTF8) { try FormFields(parsing: "a=%FF") }
    }

    @Test("Encoding escapes every reserved character and round-trips")
    func encode() throws {
        let form: FormFields = ["redirect_uri": "http://127.0.0.1:8080/cb?x=1", "state": "a b+c&d=é~"]
        #expect(form.encoded == "redirect_uri=http%3A%2F%2F127.0.0.1%3A8080%2Fcb%3Fx%3D1&state=a%20b%2Bc%26d%3D%C3%A9~")
        #expect(try FormFields(parsing: form.encoded) == form)
    }
}
