import Stratus
import StratusAdapterKit
import Testing

/// `RemotePath(rootOption:service:rules:alternative:)`, how an adapter reads a folder root.
@Suite struct RootOptionTests {
    @Test func aFolderPathMayEndInASlash() throws {
        #expect(
            try RemotePath(rootOption: "Games/Saves/", service: "Drive", alternative: "x").components == [
                "Games", "Saves",
            ])
        #expect(try RemotePath(rootOption: "Games", service: "Drive", alternative: "x").components == ["Games"])
    }

    @Test func aPathThatIsNotAFolderIsAConfigurationErrorThatSaysWhatToUse() {
        for text in ["", "/", "a/../b", "a//b"] {
            let error = #expect(throws: ServiceError.self) {
                try RemotePath(rootOption: text, service: "OneDrive", alternative: "approot")
            }
            #expect(error?.code == .invalidConfiguration)
            #expect(error?.message.hasPrefix("The OneDrive option 'root' is not a valid folder path: ") == true)
            #expect(error?.message.hasSuffix(" Use approot or a path such as Games/Saves.") == true)
        }
    }

    @Test func theProvidersPathRulesApply() {
        let rules = PathRules(isCaseSensitive: false, forbiddenCharacters: [":"])
        #expect(throws: ServiceError.self) {
            try RemotePath(rootOption: "Games/a:b", service: "OneDrive", rules: rules, alternative: "approot")
        }
        #expect(throws: Never.self) {
            try RemotePath(rootOption: "Games/a:b", service: "Drive", alternative: "appDataFolder")
        }
    }
}
