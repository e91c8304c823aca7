import Foundation
import Stratus
import Testing

@Suite("RemotePath")
struct RemotePathTests {
    @Test("a valid path keeps its components in order")
    func valid() throws {
        let path = try RemotePath("saves/slot-1.json")
        #expect(path.components == ["saves", "slot-1.json"])
        #expect(path.string == "saves/slot-1.json")
        #expect(path.description == "saves/slot-1.json")
        #expect(path.name == "slot-1.json")
        #expect(!path.isRoot)
    }

    @Test("one leading slash is accepted and dropped")
    func leadingSlash() throws {
        #expect(try RemotePath("/saves/slot-1.json") == RemotePath("saves/slot-1.json"))
        #expect(try RemotePath("/saves").string == "saves")
    }

    @Test("the empty string and a lone slash are the root")
    func root() throws {
        #expect(try RemotePath("") == .root)
        #expect(try RemotePath("/") == .root)
        #expect(RemotePath.root.isRoot)
        #expect(RemotePath.root.components.isEmpty)
        #expect(RemotePath.root.name == "")
        #expect(RemotePath.root.string == "")
        #expect(RemotePath.root.parent == nil)
    }

    @Test(
        "invalid paths are refused with invalidPath and a reason",
        arguments: [
            ("a/../b", "'..'"),
            ("..", "'..'"),
            ("a/./b", "'.'"),
            ("a//b", "empty component"),
            ("//a", "empty component"),
            ("a/", "empty component"),
            ("a\u{0}b", "control character"),
            ("a\nb", "control character"),
            ("tab\there", "control character"),
            ("del\u{7F}", "control character"),
            ("c1\u{85}", "control character"),
        ]
    )
    func invalid(text: String, reason: String) throws {
        let error = try #require(throws: ServiceError.self) { try RemotePath(text) }
        #expect(error.code == .invalidPath)
        #expect(error.message.contains(reason), "\(error.message)")
        #expect(error.message.contains(text.debugDescription))
    }

    @Test("Unicode is kept exactly as given, and differently composed names stay different")
    func unicodeKept() throws {
        let composed = try RemotePath("caf\u{E9}/\u{1F3AE} save.json")
        let decomposed = try RemotePath("cafe\u{301}/\u{1F3AE} save.json")
        #expect(Array(composed.components[0].unicodeScalars) == ["c", "a", "f", "\u{E9}"])
        #expect(Array(decomposed.components[0].unicodeScalars) == ["c", "a", "f", "e", "\u{301}"])
        #expect(composed != decomposed)
        #expect(Set([composed, decomposed]).count == 2)
        #expect(composed < decomposed || decomposed < composed)
        #expect(try RemotePath("Save.json") != RemotePath("save.json"))
        #expect(try !RemotePath("caf\u{E9}").contains(RemotePath("cafe\u{301}/x")))
    }

    @Test("appending adds one or more components, and refuses what names no child")
    func appending() throws {
        let folder = try RemotePath("saves")
        #expect(try folder.appending("slot-1.json") == RemotePath("saves/slot-1.json"))
        #expect(try folder.appending("a/b") == RemotePath("saves/a/b"))
        #expect(try RemotePath.root.appending("saves") == folder)
        for bad in ["", "/", "..", "a//b", "x\u{0}"] {
            let error = try #require(throws: ServiceError.self, "\(bad.debugDescription)") { try folder.appending(bad) }
            #expect(error.code == .invalidPath)
        }
    }

    @Test("parent walks up one component at a time to the root")
    func parent() throws {
        let path = try RemotePath("a/b/c")
        #expect(try path.parent == RemotePath("a/b"))
        #expect(try path.parent?.parent == RemotePath("a"))
        #expect(path.parent?.parent?.parent == .root)
        #expect(path.parent?.parent?.parent?.parent == nil)
    }

    @Test("contains is true for the path itself and anything below it, by whole components")
    func contains() throws {
        let folder = try RemotePath("saves")
        #expect(folder.contains(folder))
        #expect(try folder.contains(RemotePath("saves/slot-1.json")))
        #expect(try folder.contains(RemotePath("saves/a/b")))
        #expect(try !folder.contains(RemotePath("saves-old/slot-1.json")))
        #expect(try !folder.contains(RemotePath("other")))
        #expect(try !RemotePath("saves/a").contains(folder))
        #expect(try RemotePath.root.contains(RemotePath("anything/at/all")))
    }

    @Test("paths sort component by component")
    func ordering() throws {
        let paths = try ["b", "a/z", "a", "a/b"].map(RemotePath.init)
        #expect(try paths.sorted() == ["a", "a/b", "a/z", "b"].map(RemotePath.init))
    }

    @Test("Codable writes a plain string and reads it back")
    func codableRoundTrip() throws {
        let paths = try [RemotePath("saves/slot-1.json"), .root, RemotePath("caf\u{E9}/\u{1F3AE}")]
        let data = try JSONEncoder().encode(paths)
        #expect(
            try JSONDecoder().decode([String].self, from: data) == ["saves/slot-1.json", "", "caf\u{E9}/\u{1F3AE}"])
        #expect(try JSONDecoder().decode([RemotePath].self, from: data) == paths)
    }

    @Test("decoding an invalid path is a DecodingError, not a ServiceError")
    func decodingInvalid() throws {
        for json in [#"["a/../b"]"#, #"["a//b"]"#, #"["a\u0000b"]"#] {
            let error = try #require(throws: DecodingError.self, "\(json)") {
                try JSONDecoder().decode([RemotePath].self, from: Data(json.utf8))
            }
            guard case .dataCorrupted(let context) = error else {
                Issue.record("expected dataCorrupted, got \(error)")
                continue
            }
            #expect(context.debugDescription.contains("is not valid"))
        }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([RemotePath].self, from: Data("[3]".utf8)) }
    }
}
