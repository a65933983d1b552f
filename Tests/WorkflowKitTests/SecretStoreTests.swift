import Foundation
import Testing

@testable import WorkflowKit

/// The secrets file: names, values, mode 0600 from creation, atomic replacement, refusal of a
/// file others can read, and writers that take turns.
@Suite("Secret store")
struct SecretStoreTests {
    let folder: URL
    let store: SecretStore

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("secrets-\(UUID().uuidString)")
        store = SecretStore(folder: folder)
    }

    func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func setListsAndRemovesSecretsInAFileOnlyItsOwnerCanRead() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let setAt = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(try store.secrets().isEmpty)
        #expect(try store.set("s3cr3t-token", named: "TOKEN", now: setAt) == false)
        #expect(try mode(store.url.path) == 0o600)
        #expect(try store.set("another-value", named: "_Second2") == false)
        #expect(try store.set("s3cr3t-token-2", named: "TOKEN", now: setAt) == true)
        let secrets = try store.secrets()
        #expect(secrets.keys.sorted() == ["TOKEN", "_Second2"])
        #expect(secrets["TOKEN"] == SecretStore.Secret(name: "TOKEN", value: "s3cr3t-token-2", setAt: setAt))
        #expect(try mode(store.url.path) == 0o600)

        try store.remove(named: "_Second2")
        #expect(try store.secrets().keys.sorted() == ["TOKEN"])
        // Only the file is left in the folder: no temporary copies.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["secrets.json"])
        // A second store on the same folder reads what the first wrote.
        #expect(try SecretStore(folder: folder).secrets()["TOKEN"]?.value == "s3cr3t-token-2")
    }

    @Test func namesFollowThePatternAndValuesAreNotEmpty() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        for valid in ["A", "_", "GITHUB_TOKEN", "token2", "_x9"] { #expect(SecretStore.isValidName(valid), "\(valid)") }
        for invalid in ["", "2FA", "github-token", "a.b", "é", "A B"] { #expect(!SecretStore.isValidName(invalid), "\(invalid)") }
        #expect(throws: SecretStoreError.invalidName("github-token")) { try store.set("x", named: "github-token") }
        #expect(throws: SecretStoreError.emptyValue(name: "TOKEN")) { try store.set("", named: "TOKEN") }
        #expect(!FileManager.default.fileExists(atPath: store.url.path))
    }

    @Test func removingAnUnknownNameSaysWhichNamesAreClose() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try store.set("value-1", named: "GITHUB_TOKEN")
        let error = #expect(throws: SecretStoreError.self) { try store.remove(named: "GITHUB_TOKN") }
        #expect(error == .unknownName("GITHUB_TOKN", stored: ["GITHUB_TOKEN"]))
        #expect(error?.description == "no secret 'GITHUB_TOKN'")
        #expect(error?.fix == "did you mean 'GITHUB_TOKEN'?")
    }

    @Test func aFileOthersCanReadIsRefusedWithTheChmodFixButStillMasked() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try store.set("s3cr3t-token", named: "TOKEN")
        for exposed in [0o640, 0o604, 0o620, 0o660] {
            try FileManager.default.setAttributes([.posixPermissions: exposed], ofItemAtPath: store.url.path)
            let error = #expect(throws: SecretStoreError.self) { try store.secrets() }
            #expect(error == .exposed(path: store.url.path, mode: UInt32(exposed)))
            #expect(error?.fix == "chmod 600 \(store.url.path)")
            #expect(throws: SecretStoreError.self) { try store.set("other", named: "OTHER") }
            #expect(store.mask().mask("the token is s3cr3t-token") == "the token is ***")
        }
        #expect(SecretStoreError.exposed(path: "/f", mode: 0o644).description == "the secrets file /f can be read by other users (mode 0644)")
        #expect(SecretStoreError.exposed(path: "/f", mode: 0o620).description == "the secrets file /f can be changed by other users (mode 0620)")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: store.url.path)
        #expect(try store.secrets()["TOKEN"]?.value == "s3cr3t-token")
    }

    @Test func aDamagedFileOrALinkIsRefusedAndTheFileIsLeftAlone() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: store.url.path, contents: Data("not json".utf8), attributes: [.posixPermissions: 0o600])
        #expect(throws: SecretStoreError.damaged(path: store.url.path, reason: "it is not JSON")) { try store.secrets() }
        #expect(throws: SecretStoreError.self) { try store.set("value", named: "TOKEN") }
        #expect(try String(contentsOf: store.url, encoding: .utf8) == "not json")

        try FileManager.default.removeItem(at: store.url)
        let target = folder.appendingPathComponent("elsewhere.json")
        _ = FileManager.default.createFile(atPath: target.path, contents: Data("{\"secrets\":{}}".utf8), attributes: [.posixPermissions: 0o600])
        try FileManager.default.createSymbolicLink(at: store.url, withDestinationURL: target)
        let error = #expect(throws: SecretStoreError.self) { try store.secrets() }
        #expect(error?.description.contains("it is a symbolic link") == true)
    }

    @Test func writersAtOnceAllLand() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = self.store
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<16 {
                group.addTask { _ = try? store.set("value-number-\(index)", named: "S\(index)") }
            }
        }
        #expect(try store.secrets().count == 16)
        #expect(try mode(store.url.path) == 0o600)
    }

    @Test func theMaskFollowsTheFileAsItChanges() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(store.mask().isEmpty)
        try store.set("first-value", named: "ONE")
        #expect(store.mask().mask("first-value second-value") == "*** second-value")
        try store.set("second-value", named: "TWO")
        #expect(store.mask().mask("first-value second-value") == "*** ***")
        try store.remove(named: "ONE")
        #expect(store.mask().mask("first-value second-value") == "first-value ***")
    }
}
